import type { OutboxTable } from '@atrium/core';

/**
 * Kysely table types of the bench database. Every row is keyed by a random UUID; times are Unix
 * milliseconds (the API shows whole seconds, as Bencher does); flags are 0/1 integers.
 */

export interface UserTable {
  uuid: string;
  name: string;
  slug: string;
  email: string;
  admin: number;
  locked: number;
  created: number;
  modified: number;
}

export interface ApiKeyTable {
  uuid: string;
  /** `user` keys act as their user; `run` keys are scoped to one project. */
  kind: 'user' | 'run';
  user_uuid: string | null;
  project_uuid: string | null;
  name: string;
  /** sha256 hex of the plaintext key, which is never stored. */
  key_hash: string;
  creation: number;
  expiration: number;
  revoked: number | null;
}

export interface OrganizationTable {
  uuid: string;
  name: string;
  slug: string;
  created: number;
  modified: number;
  deleted: number | null;
}

export interface OrganizationRoleTable {
  organization_uuid: string;
  user_uuid: string;
  role: 'leader' | 'member';
  created: number;
  modified: number;
}

export interface ProjectTable {
  uuid: string;
  organization_uuid: string;
  name: string;
  slug: string;
  url: string | null;
  visibility: 'public' | 'private';
  created: number;
  modified: number;
  deleted: number | null;
}

export interface ProjectRoleTable {
  project_uuid: string;
  user_uuid: string;
  role: 'maintainer' | 'developer' | 'reporter' | 'viewer';
  created: number;
}

/** Branches, testbeds, benchmarks and measures share this shape (measures add `units`). */
export interface DimensionColumns {
  uuid: string;
  project_uuid: string;
  name: string;
  slug: string;
  created: number;
  modified: number;
  archived: number | null;
}

export interface BranchTable extends DimensionColumns {
  head_uuid: string | null;
}

export interface MeasureTable extends DimensionColumns {
  units: string;
}

export interface HeadTable {
  uuid: string;
  branch_uuid: string;
  /** The start point: a head of another branch and one of its versions. */
  start_head_uuid: string | null;
  start_version_uuid: string | null;
  created: number;
  replaced: number | null;
}

export interface VersionTable {
  uuid: string;
  project_uuid: string;
  number: number;
  hash: string | null;
}

export interface HeadVersionTable {
  head_uuid: string;
  version_uuid: string;
  /** The version's number (copied from `version`, for the index on head and number). */
  number: number;
}

export interface ThresholdTable {
  uuid: string;
  project_uuid: string;
  branch_uuid: string;
  testbed_uuid: string;
  measure_uuid: string;
  model_uuid: string | null;
  created: number;
  modified: number;
}

export interface ModelTable {
  uuid: string;
  threshold_uuid: string;
  test: string;
  min_sample_size: number | null;
  max_sample_size: number | null;
  window: number | null;
  lower_boundary: number | null;
  upper_boundary: number | null;
  created: number;
  replaced: number | null;
}

export interface ReportTable {
  uuid: string;
  project_uuid: string;
  user_uuid: string | null;
  head_uuid: string;
  version_uuid: string;
  testbed_uuid: string;
  adapter: string;
  start_time: number;
  end_time: number;
  created: number;
  /** A run's idempotency key (unique per project), when it sent one. */
  idempotency_key: string | null;
  /** How many metrics the report stored (the daily metric limit sums it). */
  metric_count: number;
}

export interface ReportBenchmarkTable {
  uuid: string;
  report_uuid: string;
  iteration: number;
  benchmark_uuid: string;
}

export interface MetricTable {
  uuid: string;
  report_benchmark_uuid: string;
  /** Copies of the `report_benchmark` row's, for the perf query's index (migration 0011). */
  report_uuid: string;
  benchmark_uuid: string;
  iteration: number;
  measure_uuid: string;
  value: number;
  lower_value: number | null;
  upper_value: number | null;
}

export interface BoundaryTable {
  uuid: string;
  metric_uuid: string;
  threshold_uuid: string;
  model_uuid: string;
  baseline: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
}

export interface AlertTable {
  uuid: string;
  /** Denormalised from the report (migration 0005) so a project's alerts are found by index. */
  project_uuid: string;
  boundary_uuid: string;
  boundary_limit: 'lower' | 'upper';
  status: 'active' | 'dismissed' | 'silenced';
  created: number;
  modified: number;
}

/** A change found by a `change_point` threshold (migration 0014, an Atrium extension). */
export interface ChangePointTable {
  uuid: string;
  project_uuid: string;
  threshold_uuid: string;
  model_uuid: string;
  head_uuid: string;
  testbed_uuid: string;
  benchmark_uuid: string;
  measure_uuid: string;
  /** The report that found it, and the boundary of its metric then judged. */
  report_uuid: string;
  boundary_uuid: string;
  /** The last metric of the old regime and the first of the new one. */
  last_metric_uuid: string;
  first_metric_uuid: string;
  before: number;
  after: number;
  /** (after − before) / |before|; null when before is 0. */
  shift: number | null;
  direction: 'increase' | 'decrease';
  score: number;
  created: number;
}

export interface PlotTable {
  uuid: string;
  project_uuid: string;
  /** Position among the project's plots, from 0. */
  rank: number;
  title: string | null;
  lower_value: number;
  upper_value: number;
  lower_boundary: number;
  upper_boundary: number;
  x_axis: 'date_time' | 'version';
  y_axis: 'auto' | 'linear' | 'log';
  window_seconds: number;
  /** JSON arrays of UUIDs. */
  branches: string;
  testbeds: string;
  benchmarks: string;
  measures: string;
  created: number;
  modified: number;
}

export interface AnonymousCreationTable {
  address: string;
  created: number;
}

/** Reports and metrics a project stored in one hour (`created` / 3,600,000), for its daily limits. */
export interface ReportUsageTable {
  project_uuid: string;
  hour: number;
  reports: number;
  metrics: number;
}

/** An invitation to an organisation; `uuid` is the `jti` of the invitation JWT. */
export interface InvitationTable {
  uuid: string;
  organization_uuid: string;
  email: string;
  role: 'leader' | 'member';
  inviter_uuid: string;
  created: number;
  expires: number;
  state: 'pending' | 'used' | 'revoked';
}

/** A user's new e-mail address, waiting for its confirmation; `uuid` is the `jti` of the emailed token. */
export interface EmailChangeTable {
  uuid: string;
  user_uuid: string;
  email: string;
  created: number;
  expires: number;
}

export interface BenchDatabase {
  invitation: InvitationTable;
  email_change: EmailChangeTable;
  anonymous_creation: AnonymousCreationTable;
  report_usage: ReportUsageTable;
  outbox: OutboxTable;
  /** Email confirmation tokens already exchanged for a session (each works once), kept until they expire. */
  used_auth_token: { token_hash: string; expires: number };
  user: UserTable;
  api_key: ApiKeyTable;
  organization: OrganizationTable;
  organization_role: OrganizationRoleTable;
  project: ProjectTable;
  project_role: ProjectRoleTable;
  branch: BranchTable;
  head: HeadTable;
  version: VersionTable;
  head_version: HeadVersionTable;
  testbed: DimensionColumns;
  benchmark: DimensionColumns;
  measure: MeasureTable;
  threshold: ThresholdTable;
  model: ModelTable;
  report: ReportTable;
  report_benchmark: ReportBenchmarkTable;
  metric: MetricTable;
  boundary: BoundaryTable;
  alert: AlertTable;
  change_point: ChangePointTable;
  plot: PlotTable;
}

export type DimensionTableName = 'branch' | 'testbed' | 'benchmark' | 'measure';
