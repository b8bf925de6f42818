import { describe, expect, it } from 'vitest';
import { holds, indexOfBytes, joinBytes, lastIndexOfBytes } from '../src/wire/bytes.js';
import { eventEnd, SseBytes } from '../src/wire/sse-bytes.js';

const b = (text: string) => Buffer.from(text);

describe('byte searches', () => {
  it.each([
    ['at the start', 'data: x', 'data', 0, -1, 0],
    ['later, from an offset', 'a"b"b"', '"b', 2, -1, 3],
    ['absent', 'abc', 'abd', 0, -1, -1],
    ['past the end limit', 'abcdef', 'ef', 0, 5, -1],
    ['the needle longer than the bytes', 'ab', 'abc', 0, -1, -1],
    ['a partial match before a full one', 'aab', 'ab', 0, -1, 1],
  ])('indexOfBytes: %s', (_name, text, needle, from, to, expected) => {
    expect(indexOfBytes(b(text), b(needle), from, to === -1 ? undefined : to)).toBe(expected);
    expect(indexOfBytes(b(text), b(needle), from, to === -1 ? undefined : to)).toBe(
      to === -1 ? b(text).indexOf(needle, from) : expected,
    );
  });

  it.each([
    ['the last of several', 'x\n\ny\n\nz', '\n\n', 0, 4],
    ['none', 'x\ny', '\n\n', 0, -1],
    ['not before `from`', '\n\nx', '\n\n', 1, -1],
  ])('lastIndexOfBytes: %s', (_name, text, needle, from, expected) => {
    expect(lastIndexOfBytes(b(text), b(needle), from)).toBe(expected);
  });

  it('holds: inside, at the edge, past the end', () => {
    expect(holds(b('abc'), b('bc'), 1)).toBe(true);
    expect(holds(b('abc'), b('c'), 2)).toBe(true);
    expect(holds(b('abc'), b('cd'), 2)).toBe(false);
    expect(holds(b('abc'), b('a'), -1)).toBe(false);
  });

  it('joinBytes copies the pieces in order', () => {
    expect(String(joinBytes([b('ab'), b(''), b('é'), b('c')]))).toBe('abéc');
  });
});

describe('SseBytes', () => {
  /** The events completed by each chunk, as text. */
  const cut = (chunks: string[]) => {
    const events = new SseBytes();
    return chunks.map((chunk) => String(events.complete(b(chunk)) ?? ''));
  };

  it.each([
    ['whole events', ['a\n\nb\n\n'], ['a\n\nb\n\n']],
    ['an event split in three', ['da', 'ta: x', '\n\n'], ['', '', 'data: x\n\n']],
    ['the blank line split between chunks', ['a\n', '\nb\n\n'], ['', 'a\n\nb\n\n']],
    ['the blank line split, nothing after it', ['a\n', '\n'], ['', 'a\n\n']],
    ['an event then the start of another', ['a\n\nb', '\n\n'], ['a\n\n', 'b\n\n']],
    ['a single newline is not an end', ['a\nb', 'c\n\n'], ['', 'a\nbc\n\n']],
  ])('%s', (_name, chunks, expected) => {
    expect(cut(chunks)).toEqual(expected);
  });

  it('hands back a chunk of whole events as the same bytes, and keeps an unterminated rest', () => {
    const events = new SseBytes();
    const chunk = b('a\n\n');
    expect(events.complete(chunk)).toBe(chunk);
    expect(events.complete(b('b'))).toBeUndefined();
    expect(String(events.takeRest())).toBe('b');
    expect(events.takeRest()).toBeUndefined();
  });

  it('eventEnd finds where each event ends, then -1', () => {
    const bytes = b('a\n\nbc\n\n');
    expect([eventEnd(bytes, 0), eventEnd(bytes, 3), eventEnd(bytes, 7)]).toEqual([1, 5, -1]);
  });
});
