import { httpFields } from '@atrium/core';
import { z } from 'zod';

const startedAt = Math.floor(Date.now() / 1000);

export const modelSchema = z.strictObject({
  /** `<vendor>/<model_name>`, the value clients pass as `model`. */
  id: z.string().regex(/^[\w.-]+\/[\w.:-]+$/, 'must look like <vendor>/<model_name>'),
  /** Unix seconds; defaults to the gateway's start time. */
  created: z.number().int().nonnegative().default(startedAt),
  contextLength: z.number().int().positive(),
});

export const inferenceConfigSchema = z
  .strictObject({
    ...httpFields(8000),
    /** `owned_by` of every model: the gateway's name. */
    ownedBy: z.string().min(1).default('atrium'),
    models: z.array(modelSchema).default([]),
  })
  .prefault({});

export type InferenceConfig = z.infer<typeof inferenceConfigSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
