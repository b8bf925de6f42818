import type { ChangePointView } from '../storage/change-points.js';

/**
 * `change_point` (an Atrium extension field, on alerts of `change_point` thresholds and on perf series): the change,
 * its size (`shift` = (after − before) / |before|, null when before is 0) and the versions between which it
 * happened: `from_*` the last report of the old regime, `to_*` the first of the new; `report` found it.
 */
export function jsonChangePoint(row: ChangePointView) {
  return {
    uuid: row.uuid,
    direction: row.direction,
    before: row.before,
    after: row.after,
    shift: row.shift,
    score: row.score,
    from_metric: row.from_metric,
    from_report: row.from_report,
    from_version: row.from_version,
    from_hash: row.from_hash,
    to_metric: row.to_metric,
    to_report: row.to_report,
    to_version: row.to_version,
    to_hash: row.to_hash,
    report: row.report_uuid,
  };
}

export type JsonChangePoint = ReturnType<typeof jsonChangePoint>;
