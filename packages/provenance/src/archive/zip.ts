import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/** One member of a zip file, located through the central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const MAX32 = 0xffffffff;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function findEocd(tail: Buffer): number {
  for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === EOCD) return i;
  return -1;
}

function zip64Values(extra: Buffer, wanted: { size: boolean; compressed: boolean; offset: boolean }) {
  const out: { size?: number; compressed?: number; offset?: number } = {};
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 0x0001) {
      let p = i + 4;
      const next = () => {
        const v = Number(extra.readBigUInt64LE(p));
        p += 8;
        return v;
      };
      if (wanted.size) out.size = next();
      if (wanted.compressed) out.compressed = next();
      if (wanted.offset) out.offset = next();
    }
    i += 4 + len;
  }
  return out;
}

/** Reads the central directory of a zip file (zip64 included) without reading any member. */
export async function readZipDirectory(path: string): Promise<Map<string, ZipEntry>> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = await readAt(file, size - tailLength, tailLength);
    const at = findEocd(tail);
    if (at < 0) throw new Error(`${path} is not a zip file`);
    let count = tail.readUInt16LE(at + 10);
    let dirSize = tail.readUInt32LE(at + 12);
    let dirOffset = tail.readUInt32LE(at + 16);
    const locatorAt = at - 20;
    if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === EOCD64_LOCATOR) {
      const eocd64 = await readAt(file, Number(tail.readBigUInt64LE(locatorAt + 8)), 56);
      count = Number(eocd64.readBigUInt64LE(32));
      dirSize = Number(eocd64.readBigUInt64LE(40));
      dirOffset = Number(eocd64.readBigUInt64LE(48));
    }
    const directory = await readAt(file, dirOffset, dirSize);
    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let i = 0; i < count && directory.readUInt32LE(p) === CENTRAL; i++) {
      const nameLength = directory.readUInt16LE(p + 28);
      const extraLength = directory.readUInt16LE(p + 30);
      const commentLength = directory.readUInt16LE(p + 32);
      const name = directory.toString('utf8', p + 46, p + 46 + nameLength);
      let compressedSize = directory.readUInt32LE(p + 20);
      let entrySize = directory.readUInt32LE(p + 24);
      let localHeaderOffset = directory.readUInt32LE(p + 42);
      if (compressedSize === MAX32 || entrySize === MAX32 || localHeaderOffset === MAX32) {
        const extra = directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
        const z = zip64Values(extra, {
          size: entrySize === MAX32,
          compressed: compressedSize === MAX32,
          offset: localHeaderOffset === MAX32,
        });
        entrySize = z.size ?? entrySize;
        compressedSize = z.compressed ?? compressedSize;
        localHeaderOffset = z.offset ?? localHeaderOffset;
      }
      entries.set(name, {
        name,
        method: directory.readUInt16LE(p + 10),
        compressedSize,
        size: entrySize,
        localHeaderOffset,
      });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** Streams one member's uncompressed bytes (stored or deflated) straight from the zip file. */
export async function openZipEntry(path: string, entry: ZipEntry): Promise<Readable> {
  const file = await open(path, 'r');
  let header: Buffer;
  try {
    header = await readAt(file, entry.localHeaderOffset, 30);
  } finally {
    await file.close();
  }
  const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new Error(`zip member ${entry.name}: unsupported compression method ${entry.method}`);
  }
  if (entry.compressedSize === 0) return Readable.from([]);
  const raw = createReadStream(path, { start: dataStart, end: dataStart + entry.compressedSize - 1 });
  if (entry.method === 0) return raw;
  return pipeline(raw, createInflateRaw(), () => undefined);
}
