import { createReadStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';

interface Written {
  name: Buffer;
  crc: number;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const MAX32 = 0xffffffff;

/** A minimal streaming zip writer (stored or deflated members, no zip64: each member and the file < 4 GiB). */
export class ZipWriter {
  private offset = 0;
  private readonly written: Written[] = [];

  constructor(private readonly out: WriteStream) {}

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }

  private header(entry: Omit<Written, 'offset'>): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6);
    h.writeUInt16LE(entry.method, 8);
    h.writeUInt32LE(0x00210000, 10);
    h.writeUInt32LE(entry.crc, 14);
    h.writeUInt32LE(entry.compressedSize, 18);
    h.writeUInt32LE(entry.size, 22);
    h.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([h, entry.name]);
  }

  /** Adds a small in-memory member, deflated. */
  async addBuffer(name: string, data: Buffer): Promise<void> {
    const compressed = deflateRawSync(data);
    const entry = {
      name: Buffer.from(name),
      crc: crc32(data),
      method: 8,
      compressedSize: compressed.length,
      size: data.length,
    };
    this.written.push({ ...entry, offset: this.offset });
    await this.write(this.header(entry));
    await this.write(compressed);
  }

  /** Adds a file stored uncompressed (its CRC is computed in a first pass so the header is exact). */
  async addFile(name: string, path: string): Promise<void> {
    const { size } = await stat(path);
    if (size >= MAX32) throw new Error(`${path} is too large for a zip without zip64`);
    let crc = 0;
    for await (const chunk of createReadStream(path)) crc = crc32(chunk as Buffer, crc);
    const entry = { name: Buffer.from(name), crc, method: 0, compressedSize: size, size };
    this.written.push({ ...entry, offset: this.offset });
    await this.write(this.header(entry));
    for await (const chunk of createReadStream(path)) await this.write(chunk as Buffer);
  }

  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.written) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0800, 8);
      c.writeUInt16LE(e.method, 10);
      c.writeUInt32LE(0x00210000, 12);
      c.writeUInt32LE(e.crc, 16);
      c.writeUInt32LE(e.compressedSize, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([c, e.name]));
    }
    if (this.written.length > 0xffff || this.offset >= MAX32)
      throw new Error('archive too large for a zip without zip64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
