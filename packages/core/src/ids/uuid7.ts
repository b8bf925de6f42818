import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;
const bytes = Buffer.alloc(16);

/**
 * A version 7 UUID (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Rows written together get
 * neighbouring keys, so inserting a report's hundreds of rows touches a few index pages at the right edge of
 * each B-tree instead of one random page per row (fewer pages to write at commit, and to log in full after a
 * PostgreSQL checkpoint). The time it carries is the row's creation time, which the API shows anyway.
 * Random bytes come from a pool refilled 4 KiB at a time.
 */
export function uuid7(now: number = Date.now()): string {
  if (offset + 10 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  bytes.writeUIntBE(now, 0, 6);
  pool.copy(bytes, 6, offset, offset + 10);
  offset += 10;
  bytes.writeUInt8(0x70 | (bytes.readUInt8(6) & 0x0f), 6);
  bytes.writeUInt8(0x80 | (bytes.readUInt8(8) & 0x3f), 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
