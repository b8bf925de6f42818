const SLASH = 0x2f;
const DOT = 0x2e;
const PERCENT = 0x25;

/** RFC 3986 unreserved characters: ALPHA / DIGIT / "-" / "." / "_" / "~". */
const UNRESERVED = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') UNRESERVED[c.charCodeAt(0)] = 1;

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Whether the path has a `%`, `//` or `/.` (the only places where it may not be canonical). */
function mayNeedRewrite(url: string, pathEnd: number): boolean {
  for (let i = 0; i < pathEnd; i++) {
    const c = url.charCodeAt(i);
    if (c === PERCENT) return true;
    if (c === SLASH) {
      const next = url.charCodeAt(i + 1);
      if (next === SLASH || next === DOT) return true;
    }
  }
  return false;
}

/** The path's bytes with percent-encoded unreserved characters decoded; undefined beyond Latin-1. */
function decodeUnreserved(url: string, pathEnd: number): { bytes: Uint8Array; length: number } | undefined {
  const bytes = new Uint8Array(pathEnd);
  let length = 0;
  for (let i = 0; i < pathEnd; i++) {
    const c = url.charCodeAt(i);
    if (c > 0xff) return undefined;
    if (c === PERCENT) {
      const high = hexDigit(url.charCodeAt(i + 1));
      const low = hexDigit(url.charCodeAt(i + 2));
      const code = high * 16 + low;
      if (high >= 0 && low >= 0 && code < 128 && UNRESERVED[code] === 1) {
        bytes[length++] = code;
        i += 2;
        continue;
      }
    }
    bytes[length++] = c;
  }
  return { bytes, length };
}

/**
 * Drops empty segments (duplicate slashes) and resolves `.` and `..` (RFC 3986 §5.2.4; `/..` stays at
 * the root), in place; returns the new length.
 */
function removeDotSegments(bytes: Uint8Array, length: number): number {
  const segmentStarts = new Int32Array((length >> 1) + 1);
  let depth = 0;
  let written = 0;
  let endsInSlash = false;
  for (let read = 0; read < length; ) {
    while (read < length && bytes[read] === SLASH) read++;
    const start = read;
    while (read < length && bytes[read] !== SLASH) read++;
    const size = read - start;
    const dots = size <= 2 && bytes[start] === DOT && (size === 1 || bytes[start + 1] === DOT);
    endsInSlash = size === 0 || dots;
    if (dots && size === 2 && depth > 0) written = segmentStarts[--depth] as number;
    if (endsInSlash) continue;
    segmentStarts[depth++] = written;
    bytes[written++] = SLASH;
    bytes.copyWithin(written, start, read);
    written += size;
  }
  if (endsInSlash || written === 0) bytes[written++] = SLASH;
  return written;
}

/**
 * The one path routing and authorization see: percent-encoded unreserved characters decoded (`%76` → `v`),
 * duplicate slashes collapsed, dot segments resolved. Encoded `/` (`%2F`) and other reserved or invalid
 * escapes stay as they are, so they never become separators; the query string is left untouched.
 * An already canonical URL is returned as is after one scan, without allocating.
 */
export function canonicalUrl(url: string): string {
  if (url.charCodeAt(0) !== SLASH) return url;
  const query = url.indexOf('?');
  const pathEnd = query === -1 ? url.length : query;
  if (!mayNeedRewrite(url, pathEnd)) return url;
  const decoded = decodeUnreserved(url, pathEnd);
  if (!decoded) return url;
  const length = removeDotSegments(decoded.bytes, decoded.length);
  const path = Buffer.from(decoded.bytes.buffer, 0, length).toString('latin1');
  return query === -1 ? path : path + url.slice(query);
}
