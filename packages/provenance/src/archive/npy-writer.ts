/** Writes a version-1 `.npy` file as NumPy does (header padded to a multiple of 64 bytes). */
export function npy(descr: string, shape: number[], values: number[]): Buffer {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64));
  header += '\n';
  const size = descr.endsWith('8') ? 8 : 4;
  const data = Buffer.alloc(values.length * size);
  values.forEach((v, i) => {
    if (descr === '<f8') data.writeDoubleLE(v, i * 8);
    else if (descr === '<i8') data.writeBigInt64LE(BigInt(v), i * 8);
    else data.writeInt32LE(v, i * 4);
  });
  const prefix = Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 0xff, header.length >> 8]);
  return Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]);
}
