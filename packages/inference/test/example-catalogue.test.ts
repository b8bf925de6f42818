import { fileURLToPath } from 'node:url';
import { loadConfig } from '@atrium/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inferenceConfigSchema } from '../src/index.js';

const file = fileURLToPath(new URL('../examples/catalogue.toml', import.meta.url));

describe('example catalogue', () => {
  const config = loadConfig(z.strictObject({ inference: inferenceConfigSchema }), { file, env: {} }).inference;

  it('lists ten upstream models with the seed limits table context lengths', () => {
    expect(config.models).toHaveLength(10);
    expect(new Set(config.models.map((m) => m.id)).size).toBe(10);
    const lengths = config.models.map((m) => m.contextLength);
    expect(lengths.filter((n) => n === 262_144)).toHaveLength(7);
    expect(lengths.filter((n) => n !== 262_144).sort((a, b) => a - b)).toEqual([32_768, 64_000, 976_000]);
    expect(config.models.every((m) => m.backend.type === 'upstream' && m.modalities.includes('text'))).toBe(true);
  });

  it('serves every -thinking variant with tools disabled', () => {
    const thinking = config.models.filter((m) => m.id.includes('-thinking'));
    expect(thinking.length).toBeGreaterThan(0);
    expect(thinking.every((m) => !m.capabilities.tools && m.capabilities.reasoning)).toBe(true);
  });
});

describe('catalogue validation', () => {
  it('refuses two models with the same id, naming the key', () => {
    const model = { id: 'acme/a', contextLength: 10, backend: { type: 'upstream', replicas: ['http://127.0.0.1:1'] } };
    const result = inferenceConfigSchema.safeParse({ models: [model, model] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      message: "duplicate model id 'acme/a'",
      path: ['models', 1, 'id'],
    });
  });
});
