import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { buildVocabulary, SPACE } from '../src/gguf/vocabulary.js';
import { encodeGguf } from '../src/gguf/writer.js';
import { buildTestModel, writeTestModel } from '../src/index.js';

describe('GGUF writer', () => {
  it('writes the v3 header, typed metadata and 32-byte aligned tensor data', () => {
    const data = Float32Array.from([1, 2, 3]);
    const file = encodeGguf(
      [
        ['general.architecture', { type: 'string', value: 'llama' }],
        ['x.count', { type: 'u32', value: 7 }],
      ],
      [{ name: 't', dims: [3], data }],
    );
    expect(file.subarray(0, 4).toString()).toBe('GGUF');
    expect(file.readUInt32LE(4)).toBe(3);
    expect(file.readBigUInt64LE(8)).toBe(1n);
    expect(file.readBigUInt64LE(16)).toBe(2n);
    expect(file.length % 32).toBe(0);
    const tail = new Float32Array(
      file.buffer.slice(file.byteOffset + file.length - 32, file.byteOffset + file.length - 20),
    );
    expect([...tail]).toEqual([1, 2, 3]);
  });

  it('refuses a tensor whose dims do not match its data', () => {
    expect(() => encodeGguf([], [{ name: 't', dims: [2, 2], data: new Float32Array(3) }])).toThrow(/dims/);
  });
});

describe('SPM vocabulary', () => {
  const vocab = buildVocabulary(['hello', 'help']);

  it('has <unk>, the control tokens and all 256 byte tokens', () => {
    expect(vocab.tokens[0]).toBe('<unk>');
    for (const control of ['<s>', '</s>', '<|im_start|>', '<|im_end|>']) expect(vocab.types[vocab.id(control)]).toBe(3);
    for (let b = 0; b < 256; b++) {
      const piece = `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`;
      expect(vocab.types[vocab.id(piece)]).toBe(6);
    }
  });

  it('holds every prefix of each word piece exactly once, longer pieces scoring higher', () => {
    for (const prefix of ['h', 'he', 'hel', 'hell', 'hello', 'help'])
      expect(() => vocab.id(SPACE + prefix)).not.toThrow();
    expect(new Set(vocab.tokens).size).toBe(vocab.tokens.length);
    expect(vocab.scores[vocab.id(`${SPACE}hello`)]).toBeGreaterThan(vocab.scores[vocab.id(`${SPACE}hel`)] as number);
  });
});

describe('generated test model', () => {
  it('is deterministic', () => {
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(buildTestModel())).toBe(digest(buildTestModel()));
    expect(digest(buildTestModel(1))).not.toBe(digest(buildTestModel()));
  });

  it('is a llama GGUF that node-llama-cpp reads, with ChatML, mean pooling and the byte tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-gguf-'));
    try {
      const path = join(dir, 'nested', 'model.gguf');
      writeTestModel(path);
      expect(readFileSync(path).subarray(0, 4).toString()).toBe('GGUF');
      const info = await readGgufFileInfo(path, { readTensorInfo: true });
      const meta = info.metadata as unknown as Record<string, Record<string, unknown>>;
      expect(info.metadata.general.architecture).toBe('llama');
      expect(meta.llama?.pooling_type).toBe(1);
      const tokenizer = info.metadata.tokenizer as unknown as { chat_template: string; ggml: { tokens: string[] } };
      expect(tokenizer.chat_template).toContain('<|im_start|>');
      expect(tokenizer.ggml.tokens).toContain('<0x0A>');
      expect(info.tensorInfo?.map((t) => t.name)).toContain('output.weight');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
