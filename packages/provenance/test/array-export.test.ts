import { describe, expect, it } from 'vitest';
import { npy } from '../src/archive/npy-writer.js';
import { arrayDataJson, exportHeader } from '../src/wire/array-export.js';
import { parseNpy } from '../src/wire/npy.js';

describe('.npy reading and the ArrayData JSON export', () => {
  it('parses shapes and dtypes, turning NaN and infinities into null', () => {
    expect(parseNpy(npy('<i8', [2, 2], [1, 2, 3, 4]))).toEqual({ shape: [2, 2], isFloat: false, values: [1, 2, 3, 4] });
    expect(parseNpy(npy('<f8', [3], [1.5, Number.NaN, Number.POSITIVE_INFINITY]))).toEqual({
      shape: [3],
      isFloat: true,
      values: [1.5, null, null],
    });
    expect(() => parseNpy(Buffer.from('nope'))).toThrow('not a .npy file');
  });

  it('writes the reference JSON byte for byte (Python separators and floats)', () => {
    const clean = parseNpy(npy('<i8', [3, 3], [4, 5, 7, 9, 5, 1, 3, 4, 4]));
    const dirty = parseNpy(
      npy('<f8', [3, 3], [4, 5, Number.NaN, 9, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 4, 4]),
    );
    const text = arrayDataJson(
      [
        ['array_clean', clean],
        ['array_dirty', dirty],
      ],
      '80fb0000-0000-4000-8000-000000000000',
      '2.7.1',
    );
    expect(text).toBe(
      `{"array_clean": [[4, 5, 7], [9, 5, 1], [3, 4, 4]], "array_dirty": [[4.0, 5.0, null], [9.0, null, null], [null, 4.0, 4.0]], "original_uuid": "80fb0000-0000-4000-8000-000000000000", "comments": ${JSON.stringify(exportHeader('2.7.1'))}}`,
    );
    expect(JSON.parse(text).array_dirty).toEqual([
      [4, 5, null],
      [9, null, null],
      [null, 4, 4],
    ]);
  });
});
