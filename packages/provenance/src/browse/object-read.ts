import type { ObjectStore } from '../archive/repository.js';

/** The first `max` bytes of an object (the stream is closed there, so a huge file costs only `max`). */
export async function readPrefix(objects: ObjectStore, key: string, max: number): Promise<Buffer> {
  const stream = await objects.open(key);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      length += buffer.length;
      if (length >= max) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max);
}
