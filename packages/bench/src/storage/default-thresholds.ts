import { DEFAULT_THRESHOLDS } from '../domain/project-defaults.js';
import { getOrCreateDimensions } from './resolve-dimensions.js';
import { insertThreshold } from './thresholds.js';
import type { Db, Measure } from './types.js';

/** The default thresholds (see project-defaults) on one branch × testbed, their measures created when missing. */
export async function insertDefaultThresholds(
  db: Db,
  on: { projectUuid: string; branchUuid: string; testbedUuid: string },
  now: number,
): Promise<void> {
  const keys = DEFAULT_THRESHOLDS.map(({ measure }) => ({
    id: { column: 'slug' as const, value: measure.slug },
    create: { name: measure.name, slug: measure.slug, extra: { units: measure.units } },
  }));
  const measures = await getOrCreateDimensions<Measure>(db, 'measure', on.projectUuid, keys, now);
  for (const { measure, model } of DEFAULT_THRESHOLDS) {
    const measureUuid = (measures.get(measure.slug) as Measure).uuid;
    await insertThreshold(db, { ...on, measureUuid, model }, now);
  }
}
