import { describe, expect, it } from 'vitest';
import { diffCatalogues, fingerprintOf, inferenceConfigSchema, type ModelConfig } from '../src/index.js';

const models = (...entries: Record<string, unknown>[]): ModelConfig[] =>
  inferenceConfigSchema.parse({
    models: entries.map((e) => ({
      contextLength: 4096,
      backend: { type: 'upstream', replicas: ['http://10.0.0.1:8000'] },
      ...e,
    })),
  }).models;

const A = { id: 'acme/a' };
const B = { id: 'acme/b' };

describe('diffCatalogues', () => {
  it.each([
    ['nothing to nothing', [], [], { added: [], removed: [], changed: [] }],
    ['first catalogue', [], [A, B], { added: ['acme/a', 'acme/b'], removed: [], changed: [] }],
    ['same catalogue', [A, B], [B, A], { added: [], removed: [], changed: [] }],
    ['one removed, one added', [A], [B], { added: ['acme/b'], removed: ['acme/a'], changed: [] }],
    ['context length', [A], [{ ...A, contextLength: 8192 }], { added: [], removed: [], changed: ['acme/a'] }],
    ['pricing', [A], [{ ...A, pricing: { inputPerMillion: 3 } }], { added: [], removed: [], changed: ['acme/a'] }],
    [
      'upstream replicas',
      [A],
      [{ ...A, backend: { type: 'upstream', replicas: ['http://10.0.0.2:8000'] } }],
      { added: [], removed: [], changed: ['acme/a'] },
    ],
    ['created only', [{ ...A, created: 1 }], [{ ...A, created: 2 }], { added: [], removed: [], changed: [] }],
  ])('%s', (_, before, after, change) => {
    expect(diffCatalogues(fingerprintOf(models(...before)), fingerprintOf(models(...after)))).toEqual(change);
  });

  it('fingerprints hold no upstream secret', () => {
    const secret = 'upstream-secret-123';
    const fingerprint = fingerprintOf(
      models({ ...A, backend: { type: 'upstream', replicas: ['http://h:1'], apiKey: secret } }),
    );
    expect(JSON.stringify(fingerprint)).not.toContain(secret);
  });
});
