import type { Service } from '../bench/lib/atrium-serve.js';

/** Values a case may need, resolved once the services are up. */
export interface Secrets {
  /** The inference demo key (`ATRIUM_DEMO_KEY`). */
  demoKey: string;
  /** An inference key with a 100-token budget, allowed on `fuzz/echo` and the tiny model. */
  smallKey: string;
  /** A bench JWT for the `fuzz` project's owner. */
  benchToken: string;
  /** A node of the provenance archive. */
  nodeUuid: string;
}

export interface Request {
  method: string;
  /** Sent as is (no normalisation): `//v1/models`, `%76`, `..` reach the server unchanged. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Idle connections opened from one loopback address before `/healthz` is asked from another (`fuzz/flood.ts`). */
export interface Flood {
  /** Any of 127/8 but 127.0.0.1 (Linux routes all of it to loopback). */
  from: string;
  connections: number;
}

export type Status = number | '2xx' | '4xx';

/**
 * What the answer must be: any of `status` (exact statuses or a class). A 500 is only allowed when listed and
 * `message` is given: one of the reference's deliberate (AiiDA-compatible) 500s, whose `message` must match,
 * so an unexpected `internal server error` still fails. Error answers must be in the service's own shape.
 */
export interface Expect {
  status: Status | Status[];
  message?: RegExp;
  /** The answer's body must not match (e.g. file contents from outside the archive). */
  forbid?: RegExp;
  /** A web-UI route: its errors are HTML pages, not the API's shape. */
  page?: boolean;
}

export interface Case {
  /** The finding it comes from (C1, H2, …, `held` for the "What held" list) and what it sends. */
  name: string;
  service: Service;
  /**
   * `sentinel` is unique to the case and must never reach a log: put it in query strings, bodies and
   * credentials headers.
   */
  request: (secrets: Secrets, sentinel: string) => Request | { raw: Buffer } | { flood: Flood };
  expect: Expect;
  /** Default 2,000. */
  maxMs?: number;
  /** Answered by the HTTP parser or body parser before any storage is touched: run on SQLite targets only. */
  parserOnly?: boolean;
  /** Runs after the answer; returns a failure message or nothing. */
  check?: (target: TargetInfo) => Promise<string | undefined>;
}

export interface TargetInfo {
  dialect: 'sqlite' | 'postgres';
  /** Where the service's database is (a `sqlite:` path or a `postgres://…?schema=` URL). */
  database: string;
}
