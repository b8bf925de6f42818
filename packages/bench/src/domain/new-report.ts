import type { Fold } from '../adapters/fold.js';
import type { Average } from '../adapters/results.js';
import type { StartPointRequest } from '../storage/branches.js';

/** A threshold model as a report, a threshold POST or PUT sends it (unset fields absent or null). */
export interface ModelInput {
  test: string;
  min_sample_size?: number | null;
  max_sample_size?: number | null;
  window?: number | null;
  lower_boundary?: number | null;
  upper_boundary?: number | null;
}

/** `JsonNewReport` after schema validation. */
export interface NewReport {
  branch: string;
  testbed: string;
  hash?: string | null;
  start_time: string;
  end_time: string;
  results: string[];
  settings?: { adapter?: string | null; average?: Average | null; fold?: Fold | null } | null;
  start_point?: StartPointRequest | null;
  thresholds?: { models?: Record<string, ModelInput> | null; reset?: boolean | null } | null;
}
