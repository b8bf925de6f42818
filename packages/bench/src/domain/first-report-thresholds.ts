import { insertDefaultThresholds } from '../storage/default-thresholds.js';
import type { Branch, Db, Dimension } from '../storage/types.js';

/**
 * A new project's default thresholds sit on `main` × `localhost`, while `atrium bench run` reports on the git
 * branch and the client's OS testbed (`Linux`, `macOS`, `Windows`). So that the defaults guard what a first run
 * uses, the project's first report copies them (same measures and models) to its own branch and testbed when no
 * threshold is there yet. A report that resets that pair's thresholds (`--thresholds-reset`) is not given them (the
 * caller says so). Later reports on other testbeds are left alone: they list the measures no threshold guards
 * (`no_threshold` in the report).
 */
export async function guardFirstReport(
  db: Db,
  projectUuid: string,
  branch: Branch,
  testbed: Dimension,
  now: number,
): Promise<void> {
  const earlier = db.selectFrom('report').select('uuid').where('project_uuid', '=', projectUuid).limit(1);
  if (await earlier.executeTakeFirst()) return;
  const guarded = await db
    .selectFrom('threshold')
    .select('uuid')
    .where('branch_uuid', '=', branch.uuid)
    .where('testbed_uuid', '=', testbed.uuid)
    .limit(1)
    .executeTakeFirst();
  if (guarded) return;
  await insertDefaultThresholds(db, { projectUuid, branchUuid: branch.uuid, testbedUuid: testbed.uuid }, now);
}
