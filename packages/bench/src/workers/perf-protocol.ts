import type { HttpProblem, LogConfig } from '@atrium/core';
import type { PerfRequest } from '../domain/perf-query.js';
import type { Project } from '../storage/types.js';
import type { PerfFormat } from '../views/perf-view.js';

/** What a perf worker thread starts with. */
export interface PerfWorkerData {
  url: string;
  /** PostgreSQL connections of the worker's own pool. */
  poolSize: number;
  logLevel: LogConfig['level'];
}

/** A perf query for a project the caller may view (access is checked before a job is made). */
export interface PerfJob {
  id: number;
  project: Project;
  request: PerfRequest;
  format: PerfFormat;
}

/** The answer's bytes, or what failed: the problem the service answers with, and the error for its log. */
export type PerfAnswer =
  | { id: number; bytes: Uint8Array }
  | { id: number; problem: HttpProblem; message: string; stack: string | undefined };
