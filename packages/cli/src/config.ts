import { benchConfigSchema } from '@atrium/bench';
import { logSchema } from '@atrium/core';
import { inferenceConfigSchema } from '@atrium/inference';
import { provenanceConfigSchema } from '@atrium/provenance';
import { z } from 'zod';

/** The whole `atrium.toml`: shared keys plus one section per service. */
export const atriumConfigSchema = z.strictObject({
  /** Where embedded defaults (SQLite files, archives, models) live. */
  dataDir: z.string().min(1).default('./data'),
  log: logSchema,
  inference: inferenceConfigSchema,
  provenance: provenanceConfigSchema,
  bench: benchConfigSchema,
});

export type AtriumConfig = z.infer<typeof atriumConfigSchema>;
