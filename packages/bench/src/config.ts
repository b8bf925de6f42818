import { httpFields } from '@atrium/core';
import { z } from 'zod';

const dailyLimit = z.number().int().positive();

export const benchConfigSchema = z
  .strictObject({
    ...httpFields(6610),
    /** Bencher's default request body limit is 4 MiB (large pytest-benchmark files). */
    bodyLimit: z
      .number()
      .int()
      .positive()
      .default(4 * 1024 * 1024),
    /** Where the console is served; answered by `GET /v0/server/config/console`. */
    consoleUrl: z.url().default('http://localhost:3000'),
    security: z
      .strictObject({
        /** JWT issuer (Bencher's default is the console URL with a trailing slash). */
        issuer: z.string().min(1).default('http://localhost:3000/'),
        /**
         * HS256 secret. Default: a random secret kept in `<dataDir>/bench-jwt-secret`. Set it to Bencher's
         * debug secret `DO_NOT_USE_THIS_IN_PRODUCTION` to accept tokens minted by Bencher's test fixtures.
         */
        secretKey: z.string().min(16).optional(),
      })
      .prefault({}),
    backup: z
      .strictObject({
        /** Where snapshots are written; default `<dataDir>/backup`. */
        directory: z.string().min(1).optional(),
        /**
         * A program run with the snapshot's path as its only argument when a backup asks for a
         * `data_store` (e.g. a script copying it to object storage). No shell is involved.
         */
        pushCommand: z.string().min(1).optional(),
      })
      .prefault({}),
    plus: z
      .strictObject({
        rateLimiting: z
          .strictObject({
            /** Creations of each resource kind per project (or organisation) per rolling day. */
            resourcesPerDay: dailyLimit.default(65_535),
            /** Metrics stored per project per rolling day. */
            metricsPerDay: dailyLimit.default(1_000_000),
            /** Projects (each in a new organisation) anonymous runs may create per client address per rolling day; 0 disables them. */
            anonymousProjectsPerDay: z.number().int().nonnegative().default(10),
          })
          .prefault({}),
      })
      .prefault({}),
  })
  .prefault({});

export type BenchConfig = z.infer<typeof benchConfigSchema>;
