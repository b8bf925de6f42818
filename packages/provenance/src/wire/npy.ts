/** A decoded `.npy` array: nested lists in C order; floats flagged so they can be written as Python does. */
export interface NpyArray {
  shape: number[];
  isFloat: boolean;
  values: (number | boolean | null)[];
}

const READERS: Record<string, [size: number, read: (b: Buffer, o: number) => number | boolean, float: boolean]> = {
  f8: [8, (b, o) => b.readDoubleLE(o), true],
  f4: [4, (b, o) => b.readFloatLE(o), true],
  i8: [8, (b, o) => Number(b.readBigInt64LE(o)), false],
  i4: [4, (b, o) => b.readInt32LE(o), false],
  i2: [2, (b, o) => b.readInt16LE(o), false],
  i1: [1, (b, o) => b.readInt8(o), false],
  u8: [8, (b, o) => Number(b.readBigUInt64LE(o)), false],
  u4: [4, (b, o) => b.readUInt32LE(o), false],
  u2: [2, (b, o) => b.readUInt16LE(o), false],
  u1: [1, (b, o) => b.readUInt8(o), false],
  b1: [1, (b, o) => b.readUInt8(o) !== 0, false],
};

/** Parses NumPy's `.npy` format (versions 1–3, little-endian numeric dtypes). */
export function parseNpy(buffer: Buffer): NpyArray {
  if (buffer.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error('not a .npy file');
  const major = buffer[6] ?? 1;
  const headerLength = major === 1 ? buffer.readUInt16LE(8) : buffer.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buffer.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([<>|=])(\w\d+)'/.exec(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? '';
  if (!descr || descr[1] === '>') throw new Error(`unsupported .npy dtype in ${header.trim()}`);
  if (/'fortran_order':\s*True/.test(header)) throw new Error('Fortran-ordered .npy arrays are not supported');
  const reader = READERS[descr[2] ?? ''];
  if (!reader) throw new Error(`unsupported .npy dtype ${descr[2]}`);
  const [size, read, isFloat] = reader;
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const values: (number | boolean | null)[] = [];
  const dataStart = start + headerLength;
  for (let i = 0; i < count; i++) {
    const value = read(buffer, dataStart + i * size);
    values.push(typeof value === 'number' && !Number.isFinite(value) ? null : value);
  }
  return { shape, isFloat, values };
}
