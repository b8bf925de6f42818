import { fileURLToPath } from 'node:url';
import { httpFields } from '@atrium/core';
import { z } from 'zod';
import { QUERY_TIMEOUT_MS } from './storage/aiida/open.js';

/** The archive served when nothing is configured: a small real export from AiiDA's test suite. */
export const BUNDLED_ARCHIVE = fileURLToPath(new URL('../fixtures/export_main_0001_simple.aiida', import.meta.url));

const sourceSchema = z.strictObject({
  /** URL prefix (`/<name>/api/v4`) and `profile=` value. */
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
  /** A `.aiida` archive path or a `postgres://` URL of an AiiDA profile database. */
  location: z.string().min(1),
  /** For a PostgreSQL source: the profile's disk-objectstore container folder (repository files). */
  repository: z.string().min(1).optional(),
});

export const provenanceConfigSchema = z
  .strictObject({
    ...httpFields(5000),
    /** Reported as `AiiDA_version` by /api/v4/server/: the AiiDA release whose data model we serve. */
    aiidaVersion: z.string().min(1).default('2.7.1'),
    /** Served databases; the first is also the default at `/api/v4`. */
    sources: z
      .array(sourceSchema)
      .min(1)
      .default([{ name: 'default', location: BUNDLED_ARCHIVE }]),
    /** Where extracted archive databases are cached (default: `<dataDir>/provenance-cache`). */
    cacheDir: z.string().min(1).optional(),
    /** Deadline of one database statement; a request whose statement runs longer answers 503. */
    queryTimeoutMs: z.number().int().positive().default(QUERY_TIMEOUT_MS),
  })
  .prefault({});

export type ProvenanceConfig = z.infer<typeof provenanceConfigSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
