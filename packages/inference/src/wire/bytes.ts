// Byte searches for the stream relays, in plain JavaScript. A stream's chunks arrive one at a time with other
// processes running in between, so each is handled with cold caches: there, a short loop over a few hundred
// bytes costs less than a call into Buffer's native indexOf/compare, whose path through the engine is long.

/** Whether `bytes` hold `part` at `at`. */
export function holds(bytes: Uint8Array, part: Uint8Array, at: number): boolean {
  if (at < 0 || at + part.length > bytes.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/** The first index of `part` in `bytes` at or after `from` and ending by `to`; -1 if none. */
export function indexOfBytes(bytes: Uint8Array, part: Uint8Array, from: number, to = bytes.length): number {
  const first = part[0];
  for (let i = from, last = to - part.length; i <= last; i++) if (bytes[i] === first && holds(bytes, part, i)) return i;
  return -1;
}

/** The last index of `part` in `bytes` starting at or after `from`; -1 if none. */
export function lastIndexOfBytes(bytes: Uint8Array, part: Uint8Array, from = 0): number {
  const first = part[0];
  for (let i = bytes.length - part.length; i >= from; i--) if (bytes[i] === first && holds(bytes, part, i)) return i;
  return -1;
}

/** `pieces` copied into one buffer. */
export function joinBytes(pieces: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
