import { httpFields, smtpSchema } from '@atrium/core';
import { z } from 'zod';

const dailyLimit = z.number().int().positive();

/** An OAuth 2.0 application registered with a provider; the secret is best set by environment variable. */
const oauthClient = {
  clientId: z.string().min(1),
  /** `ATRIUM_BENCH_AUTH_GITHUB_CLIENT_SECRET` / `ATRIUM_BENCH_AUTH_GOOGLE_CLIENT_SECRET` keep it out of the file. */
  clientSecret: z.string().min(1),
};

export const benchConfigSchema = z
  .strictObject({
    ...httpFields(6610),
    /**
     * Bencher's default request body limit is 4 MiB (large pytest-benchmark files): on the report routes (`/v0/run`,
     * `POST /v0/projects/{project}/reports`); the other routes take at most 256 KiB.
     */
    bodyLimit: z
      .number()
      .int()
      .positive()
      .default(4 * 1024 * 1024),
    /**
     * Where the console is served (by this service, on its own port); answered by `GET /v0/server/config/console`
     * and used in printed and mailed links. Default: this service's own address (`bind`, `localhost` for a wildcard
     * bind) and the port it listens on.
     */
    consoleUrl: z.url().optional(),
    /**
     * Worker threads that answer perf queries (JSON and plot images), each with its own read-only
     * connection, so that a plot of a long history does not hold the event loop; 0 answers them on it.
     */
    perfThreads: z.number().int().min(0).max(64).default(2),
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
    auth: z
      .strictObject({
        /** Lifetime of a browser session (the `client` JWT `/v0/auth/confirm` returns); Bencher's is 30 days. */
        sessionTtlSeconds: z
          .number()
          .int()
          .positive()
          .default(30 * 24 * 3600),
        /** Lifetime of the emailed confirmation link; Bencher's is 30 minutes. */
        confirmTtlSeconds: z.number().int().positive().default(1800),
        /** Lifetime of an organisation invitation (Bencher's is u32::MAX seconds); it also works only once. */
        inviteTtlSeconds: z
          .number()
          .int()
          .positive()
          .default(7 * 24 * 3600),
        /** Sign-up and log-in requests per client address per hour, then 429 (behind a proxy: the proxy's). */
        loginsPerAddressPerHour: z.number().int().positive().default(100),
        /** … per mailbox (lower-cased, without `+tag`) from one client address per hour, then 429. */
        loginsPerMailboxPerAddressPerHour: z.number().int().positive().default(10),
        /**
         * … per mailbox per hour from client addresses that have not followed a link for it within a session's
         * lifetime (strangers), then 429; the owner at an address or in a browser they signed in from is never held.
         */
        loginsPerMailboxPerHour: z.number().int().positive().default(20),
        /** … for all mailboxes per hour from such addresses: the most mail strangers can cause, then 429. */
        loginsPerHour: z.number().int().positive().default(1000),
        /** GitHub OAuth 2.0; the base URLs change for GitHub Enterprise (and for tests). */
        github: z
          .strictObject({
            ...oauthClient,
            url: z.url().default('https://github.com'),
            apiUrl: z.url().default('https://api.github.com'),
          })
          .optional(),
        /** Google sign-in (OpenID Connect, found through the issuer's discovery document). */
        google: z
          .strictObject({
            ...oauthClient,
            issuer: z.url().default('https://accounts.google.com'),
          })
          .optional(),
      })
      .prefault({}),
    /** Without it, confirmation links and invitations stay in the outbox `atrium bench admin outbox` prints. */
    smtp: smtpSchema.optional(),
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
