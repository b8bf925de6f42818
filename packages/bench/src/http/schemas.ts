import { PERMISSIONS } from '../auth/permissions.js';
import { paginationProperties } from '../wire/pagination.js';
import { MAX_SLUG_LENGTH, RESOURCE_ID_PATTERN, SLUG_PATTERN } from '../wire/slug.js';

/** JSON schemas shared by the routes (and published by `/v0/server/spec`). */

export const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

/** Bencher's `Slug`: what `slugify` leaves unchanged, 1 to 64 characters. */
export const slugField = { type: 'string', minLength: 1, maxLength: MAX_SLUG_LENGTH, pattern: SLUG_PATTERN };

/** Bencher's `ResourceId`: a UUID or a slug; anything else is refused (400) before any lookup. */
export const resourceIdField = { ...slugField, pattern: RESOURCE_ID_PATTERN };

/** Every path parameter names its resource by UUID or slug. */
export const pathParams = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, resourceIdField])),
});

/** `/…/{resource}/allowed/{permission}`: the permission must be one of Bencher's nine. */
export const permissionParams = (resource: string) => {
  const params = pathParams(resource);
  return {
    ...params,
    required: [resource, 'permission'],
    properties: { ...params.properties, permission: { type: 'string', enum: PERMISSIONS } },
  };
};

/** Bencher's `UserName`: letters, digits, spaces and `, . - '`, no space at either end, at most 64. */
export const userNameField = {
  type: 'string',
  maxLength: 64,
  pattern: "^[\\p{L}\\p{N},.'-](?:[\\p{L}\\p{N} ,.'-]*[\\p{L}\\p{N},.'-])?$",
};

export const emailField = { type: 'string', minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' };

/** A list's query string: pagination plus the endpoint's own filters. */
export const filterQuery = (sorts: readonly string[], filters: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  properties: { ...paginationProperties(sorts), ...filters },
});

const textFilter = { type: 'string', maxLength: 1024 };

/** Lists of named resources: `name` (exact) and `search` besides pagination. */
export const listQuery = (sorts: readonly string[], extra: Record<string, unknown> = {}) =>
  filterQuery(sorts, { name: textFilter, search: textFilter, ...extra });

/** Filters of the reports, thresholds and alerts lists. */
export const nameIdFilter = textFilter;
export const archivedFilter = { type: 'boolean' };

export const resourceName = { type: 'string', minLength: 1, maxLength: 64 };
export const nameId = { type: 'string', minLength: 1, maxLength: 1024 };

/** A model's `test`: Bencher's seven (and the aliases `z`, `t`) or `change_point`, an Atrium extension. */
export const modelTest = {
  type: 'string',
  maxLength: 32,
  description:
    "static, percentage, z_score (or z), t_test (or t), log_normal, iqr, delta_iqr; or change_point, Atrium's extension: boundaries are the confidence that a persistent change of level is real (upper alerts on increases, lower on decreases)",
};

export const modelFields = {
  test: modelTest,
  min_sample_size: nullable({ type: 'integer', minimum: 0, maximum: 4294967295 }),
  max_sample_size: nullable({ type: 'integer', minimum: 0, maximum: 4294967295 }),
  window: nullable({ type: 'integer', minimum: 0, maximum: 4294967295 }),
  lower_boundary: nullable({ type: 'number' }),
  upper_boundary: nullable({ type: 'number' }),
};

export const startPointSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    branch: nullable(nameId),
    hash: nullable({ type: 'string', maxLength: 64 }),
    max_versions: nullable({ type: 'integer', minimum: 1, maximum: 4294967295 }),
    clone_thresholds: nullable({ type: 'boolean' }),
    reset: nullable({ type: 'boolean' }),
  },
};

const modelSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['test'],
  properties: modelFields,
};

/** `JsonNewReport`; `/v0/run` relaxes `branch` and `testbed` and adds its own fields. */
export const newReportProperties = {
  branch: nameId,
  testbed: nameId,
  hash: nullable({ type: 'string', maxLength: 64 }),
  start_time: { type: 'string', maxLength: 64 },
  end_time: { type: 'string', maxLength: 64 },
  results: { type: 'array', maxItems: 4096, items: { type: 'string' } },
  settings: nullable({
    type: 'object',
    additionalProperties: false,
    properties: {
      adapter: nullable({ type: 'string', maxLength: 64 }),
      average: nullable({ type: 'string', enum: ['mean', 'median'] }),
      fold: nullable({ type: 'string', enum: ['min', 'max', 'mean', 'median'] }),
    },
  }),
  start_point: nullable(startPointSchema),
  thresholds: nullable({
    type: 'object',
    additionalProperties: false,
    properties: {
      models: nullable({ type: 'object', maxProperties: 256, additionalProperties: modelSchema }),
      reset: nullable({ type: 'boolean' }),
    },
  }),
};
