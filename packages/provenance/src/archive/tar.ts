import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

/** Reads every regular file of a (gzipped) tar archive into memory: ustar, GNU long names and pax paths. */
export async function readTarFiles(path: string): Promise<Map<string, Buffer>> {
  let data = await readFile(path);
  if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
  const files = new Map<string, Buffer>();
  let longName: string | undefined;
  for (let offset = 0; offset + 512 <= data.length; ) {
    const header = data.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 48);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const body = data.subarray(offset + 512, offset + 512 + size);
    longName = undefined;
    if (type === 'L') longName = body.toString('utf8').replace(/\0+$/, '');
    else if (type === 'x') longName = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    else if (type === '0' || type === '\0') files.set(name.replace(/^\.\//, ''), Buffer.from(body));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
