import { httpFields } from '@atrium/core';
import { z } from 'zod';

export const provenanceConfigSchema = z
  .strictObject({
    ...httpFields(5000),
    /** Reported as `AiiDA_version` by /api/v4/server/: the AiiDA release whose data model we serve. */
    aiidaVersion: z.string().min(1).default('2.7.1'),
  })
  .prefault({});

export type ProvenanceConfig = z.infer<typeof provenanceConfigSchema>;
