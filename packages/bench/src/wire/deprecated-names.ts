/**
 * Names Bencher renamed, still accepted on input for one release as the seed's "Versioning" says: the old name is
 * read as the new one; both at once with different values is a conflict (the caller's 400).
 */

/** Bencher Metric Format leaves: `lower_bound`/`upper_bound` became `lower_value`/`upper_value`. */
export const METRIC_RENAMES = { lower_bound: 'lower_value', upper_bound: 'upper_value' } as const;

export type Renamed = { ok: true; value: Record<string, unknown> } | { ok: false; field: string };

/** The object with every deprecated key of `renames` under its current name. */
export function renameDeprecated(value: Record<string, unknown>, renames: Readonly<Record<string, string>>): Renamed {
  let renamed: Record<string, unknown> | undefined;
  for (const [old, current] of Object.entries(renames)) {
    if (!Object.hasOwn(value, old)) continue;
    renamed ??= { ...value };
    const given = renamed[old];
    delete renamed[old];
    if (Object.hasOwn(renamed, current) && renamed[current] !== given) return { ok: false, field: old };
    renamed[current] = given;
  }
  return { ok: true, value: renamed ?? value };
}

/**
 * A threshold body with its model under the old `statistic` object (Bencher before `model`): the object's fields
 * flattened into the body, as the current API takes them.
 */
export function flattenStatistic(body: Record<string, unknown>): Renamed {
  const statistic = body.statistic;
  if (statistic === undefined || statistic === null || typeof statistic !== 'object' || Array.isArray(statistic)) {
    return { ok: true, value: body };
  }
  const { statistic: _old, ...rest } = body;
  for (const [key, value] of Object.entries(statistic)) {
    if (Object.hasOwn(rest, key) && rest[key] !== value) return { ok: false, field: `statistic.${key}` };
    rest[key] = value;
  }
  return { ok: true, value: rest };
}
