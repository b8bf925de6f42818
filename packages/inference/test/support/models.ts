import { type ModelConfig, modelSchema } from '../../src/config.js';

/** A model `acme/m` served by an upstream, with 4,096 tokens of context and the given input modalities. */
export const upstreamModel = (modalities: string[] = ['text']): ModelConfig =>
  modelSchema.parse({
    id: 'acme/m',
    contextLength: 4096,
    modalities,
    backend: { type: 'upstream', replicas: ['http://x'] },
  });
