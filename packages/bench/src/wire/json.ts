import type { Limits } from '../boundary/limits.js';
import type { Member } from '../storage/members.js';
import type {
  AlertRow,
  Branch,
  Dimension,
  Head,
  Measure,
  ModelRow,
  Organization,
  Plot,
  Project,
  Threshold,
  User,
  Version,
} from '../storage/types.js';
import { toDateTime, toOptionalDateTime } from './time.js';

/** Rows to Bencher's JSON shapes (`JsonProject`, `JsonBranch`, …); optional values are `null`, never absent. */

export const jsonOrganization = (row: Organization) => ({
  uuid: row.uuid,
  name: row.name,
  slug: row.slug,
  created: toDateTime(row.created),
  modified: toDateTime(row.modified),
  claimed: toOptionalDateTime(row.claimed),
});

export const jsonProject = (row: Project) => ({
  uuid: row.uuid,
  organization: row.organization_uuid,
  name: row.name,
  slug: row.slug,
  url: row.url,
  visibility: row.visibility,
  created: toDateTime(row.created),
  modified: toDateTime(row.modified),
  claimed: toOptionalDateTime(row.claimed),
});

export const jsonUser = (row: User) => ({
  uuid: row.uuid,
  name: row.name,
  slug: row.slug,
  email: row.email,
  admin: row.admin === 1,
  locked: row.locked === 1,
  created: toDateTime(row.created),
});

export const jsonMember = (row: Member) => ({
  uuid: row.uuid,
  name: row.name,
  slug: row.slug,
  email: row.email,
  role: row.role,
  created: toDateTime(row.created),
  modified: toDateTime(row.modified),
});

export const jsonPubUser = (row: User) => ({ uuid: row.uuid, name: row.name, slug: row.slug });

export const jsonDimension = (row: Dimension) => ({
  uuid: row.uuid,
  project: row.project_uuid,
  name: row.name,
  slug: row.slug,
  created: toDateTime(row.created),
  modified: toDateTime(row.modified),
  archived: toOptionalDateTime(row.archived),
});

export const jsonTestbed = (row: Dimension) => ({ ...jsonDimension(row), spec: null });

export const jsonMeasure = (row: Measure) => ({ ...jsonDimension(row), units: row.units });

export const jsonVersion = (row: Version) => ({ number: row.number, hash: row.hash });

/** What a head's start point points at: another branch's head and one of its versions. */
export interface StartPointRef {
  branch: string;
  head: string;
  version: Version;
}

export const jsonHead = (head: Head, startPoint: StartPointRef | undefined, version: Version | undefined) => ({
  uuid: head.uuid,
  start_point: startPoint
    ? { branch: startPoint.branch, head: startPoint.head, version: jsonVersion(startPoint.version) }
    : null,
  version: version ? jsonVersion(version) : null,
  created: toDateTime(head.created),
  replaced: toOptionalDateTime(head.replaced),
});

export const jsonBranch = (branch: Branch, head: ReturnType<typeof jsonHead>) => ({
  ...jsonDimension(branch),
  head,
});

export const jsonModel = (row: ModelRow) => ({
  uuid: row.uuid,
  test: row.test,
  min_sample_size: row.min_sample_size,
  max_sample_size: row.max_sample_size,
  window: row.window,
  lower_boundary: row.lower_boundary,
  upper_boundary: row.upper_boundary,
  created: toDateTime(row.created),
  replaced: toOptionalDateTime(row.replaced),
});

/** `JsonThresholdModel`: the threshold as seen from a metric (its model at the time). */
export const jsonThresholdModel = (threshold: Threshold, model: ModelRow | undefined) => ({
  uuid: threshold.uuid,
  project: threshold.project_uuid,
  model: model ? jsonModel(model) : null,
  created: toDateTime(threshold.created),
});

export const jsonMetric = (row: {
  uuid: string;
  value: number;
  lower_value: number | null;
  upper_value: number | null;
}) => ({ uuid: row.uuid, value: row.value, lower_value: row.lower_value, upper_value: row.upper_value });

export const jsonBoundary = (row: Limits) => ({
  baseline: row.baseline,
  lower_limit: row.lower_limit,
  upper_limit: row.upper_limit,
});

export const jsonPerfAlert = (row: AlertRow) => ({
  uuid: row.uuid,
  limit: row.boundary_limit,
  status: row.status,
  modified: toDateTime(row.modified),
});

export const jsonPlot = (row: Plot) => ({
  uuid: row.uuid,
  project: row.project_uuid,
  title: row.title,
  lower_value: row.lower_value === 1,
  upper_value: row.upper_value === 1,
  lower_boundary: row.lower_boundary === 1,
  upper_boundary: row.upper_boundary === 1,
  x_axis: row.x_axis,
  y_axis: row.y_axis,
  window: row.window_seconds,
  branches: JSON.parse(row.branches) as string[],
  testbeds: JSON.parse(row.testbeds) as string[],
  benchmarks: JSON.parse(row.benchmarks) as string[],
  measures: JSON.parse(row.measures) as string[],
  created: toDateTime(row.created),
  modified: toDateTime(row.modified),
});
