/** GGUF v3 metadata value types (the subset the writer needs). */
export const GgufType = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

export type GgufValue =
  | { type: 'u32' | 'i32' | 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; value: readonly string[] }
  | { type: 'array'; of: 'f32' | 'i32'; value: ArrayLike<number> };

/** ggml tensor types the writer emits. */
export const GgmlType = { f32: 0 } as const;

export interface GgufTensor {
  name: string;
  /** ggml order: `dims[0]` is the contiguous dimension. */
  dims: readonly number[];
  data: Float32Array;
}

const ALIGNMENT = 32;
const padding = (size: number) => (ALIGNMENT - (size % ALIGNMENT)) % ALIGNMENT;

/** Accumulates little-endian fields into one growing buffer. */
class ByteSink {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): number {
    if (this.length + bytes > this.buffer.length) {
      const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    const at = this.length;
    this.length += bytes;
    return at;
  }
  // `reserve` may replace the buffer, so it runs before `this.buffer` is read.
  u32(v: number) {
    const at = this.reserve(4);
    this.buffer.writeUInt32LE(v, at);
  }
  i32(v: number) {
    const at = this.reserve(4);
    this.buffer.writeInt32LE(v, at);
  }
  u64(v: number) {
    const at = this.reserve(8);
    this.buffer.writeBigUInt64LE(BigInt(v), at);
  }
  f32(v: number) {
    const at = this.reserve(4);
    this.buffer.writeFloatLE(v, at);
  }
  u8(v: number) {
    const at = this.reserve(1);
    this.buffer.writeUInt8(v, at);
  }
  bytes(b: Uint8Array) {
    const at = this.reserve(b.length);
    this.buffer.set(b, at);
  }
  string(s: string) {
    const encoded = Buffer.from(s, 'utf8');
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  zeros(n: number) {
    this.reserve(n);
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      sink.u32(value.value);
      return;
    case 'i32':
      sink.i32(value.value);
      return;
    case 'f32':
      sink.f32(value.value);
      return;
    case 'bool':
      sink.u8(value.value ? 1 : 0);
      return;
    case 'string':
      sink.string(value.value);
      return;
    case 'array': {
      sink.u32(GgufType[value.of]);
      sink.u64(value.value.length);
      if (value.of === 'string') for (const s of value.value as readonly string[]) sink.string(s);
      else {
        const put = value.of === 'f32' ? sink.f32.bind(sink) : sink.i32.bind(sink);
        for (let i = 0; i < value.value.length; i++) put((value.value as ArrayLike<number>)[i] as number);
      }
    }
  }
}

/** Serialises a complete GGUF v3 file: header, metadata, tensor infos, aligned F32 tensor data. */
export function encodeGguf(
  metadata: ReadonlyArray<readonly [string, GgufValue]>,
  tensors: readonly GgufTensor[],
): Buffer {
  const sink = new ByteSink();
  sink.bytes(Buffer.from('GGUF'));
  sink.u32(3);
  sink.u64(tensors.length);
  sink.u64(metadata.length);
  for (const [key, value] of metadata) {
    sink.string(key);
    sink.u32(GgufType[value.type]);
    writeValue(sink, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const elements = tensor.dims.reduce((a, b) => a * b, 1);
    if (elements !== tensor.data.length) throw new Error(`tensor ${tensor.name}: dims do not match data length`);
    sink.string(tensor.name);
    sink.u32(tensor.dims.length);
    for (const d of tensor.dims) sink.u64(d);
    sink.u32(GgmlType.f32);
    sink.u64(offset);
    offset += tensor.data.byteLength + padding(tensor.data.byteLength);
  }
  sink.zeros(padding(sink.length));
  for (const tensor of tensors) {
    sink.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    sink.zeros(padding(tensor.data.byteLength));
  }
  return sink.result();
}
