import { randomUUID } from 'node:crypto';
import { dialectOf } from '@atrium/core';
import { type Kysely, sql } from 'kysely';
import type { NameId } from '../wire/slug.js';
import { findDimension, insertDimension } from './dimensions.js';
import type { TableRows } from './report-rows.js';
import { cloneThresholds } from './thresholds.js';
import type { Branch, Db, Head, Version } from './types.js';

export const DEFAULT_MAX_VERSIONS = 255;

export interface StartPointRequest {
  branch?: string | null | undefined;
  hash?: string | null | undefined;
  max_versions?: number | null | undefined;
  clone_thresholds?: boolean | null | undefined;
  reset?: boolean | null | undefined;
}

export interface ResolvedStartPoint {
  branch: Branch;
  headUuid: string;
  version: Version;
}

/** The newest version of a head, or the newest with `hash` (falling back to the newest when unknown). */
async function latestVersion(
  db: Db,
  projectUuid: string,
  headUuid: string,
  hash: string | null | undefined,
): Promise<Version | undefined> {
  if (hash) {
    const matching = await versionWithHash(db, projectUuid, headUuid, hash.toLowerCase());
    if (matching) return matching;
  }
  return db
    .selectFrom('head_version')
    .innerJoin('version', 'version.uuid', 'head_version.version_uuid')
    .selectAll('version')
    .where('head_version.head_uuid', '=', headUuid)
    .orderBy('head_version.number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The newest version of the head with this hash: by the hash index, then membership in the head. */
function versionWithHash(db: Db, projectUuid: string, headUuid: string, hash: string): Promise<Version | undefined> {
  return db
    .selectFrom('version')
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where('hash', '=', hash)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('head_version')
          .select('head_version.version_uuid')
          .where('head_version.head_uuid', '=', headUuid)
          .whereRef('head_version.version_uuid', '=', 'version.uuid'),
      ),
    )
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Fallible, as in Bencher: an unknown branch or one without versions is no start point. */
export async function resolveStartPoint(
  db: Db,
  projectUuid: string,
  branchId: NameId,
  hash: string | null | undefined,
): Promise<ResolvedStartPoint | undefined> {
  const branch = await findDimension<Branch>(db, 'branch', projectUuid, branchId);
  if (!branch?.head_uuid) return undefined;
  const version = await latestVersion(db, projectUuid, branch.head_uuid, hash);
  return version ? { branch, headUuid: branch.head_uuid, version } : undefined;
}

/**
 * Gives the branch a new current head: the old head is replaced and its alerts silenced, the start
 * point's versions (up to `maxVersions`, newest first) become visible through the new head, and the
 * start branch's thresholds are cloned when asked.
 */
export async function startNewHead(
  db: Db,
  branch: Branch,
  startPoint: ResolvedStartPoint | undefined,
  options: { maxVersions: number; cloneThresholds: boolean },
  now = Date.now(),
): Promise<Head> {
  const head: Head = {
    uuid: randomUUID(),
    branch_uuid: branch.uuid,
    start_head_uuid: startPoint?.headUuid ?? null,
    start_version_uuid: startPoint?.version.uuid ?? null,
    created: now,
    replaced: null,
  };
  await db.insertInto('head').values(head).execute();
  if (branch.head_uuid) {
    const old = branch.head_uuid;
    await db.updateTable('head').set({ replaced: now }).where('uuid', '=', old).execute();
    await db
      .updateTable('alert')
      .set({ status: 'silenced', modified: now })
      .where('boundary_uuid', 'in', (eb) =>
        eb
          .selectFrom('boundary')
          .innerJoin('metric', 'metric.uuid', 'boundary.metric_uuid')
          .innerJoin('report_benchmark', 'report_benchmark.uuid', 'metric.report_benchmark_uuid')
          .innerJoin('report', 'report.uuid', 'report_benchmark.report_uuid')
          .select('boundary.uuid')
          .where('report.head_uuid', '=', old),
      )
      .execute();
  }
  await db.updateTable('branch').set({ head_uuid: head.uuid, modified: now }).where('uuid', '=', branch.uuid).execute();
  branch.head_uuid = head.uuid;
  branch.modified = now;
  if (startPoint) {
    const versions = await db
      .selectFrom('head_version')
      .select(['version_uuid', 'number'])
      .where('head_uuid', '=', startPoint.headUuid)
      .where('number', '<=', startPoint.version.number)
      .orderBy('number', 'desc')
      .limit(options.maxVersions)
      .execute();
    if (versions.length > 0) {
      await db
        .insertInto('head_version')
        .values(versions.map((version) => ({ head_uuid: head.uuid, ...version })))
        .execute();
    }
    if (options.cloneThresholds)
      await cloneThresholds(db, branch.project_uuid, startPoint.branch.uuid, branch.uuid, now);
  }
  return head;
}

export async function createBranch(
  db: Db,
  input: { projectUuid: string; name: string; slug: string; startPoint?: StartPointRequest | undefined },
  resolveId: (text: string) => NameId,
  now = Date.now(),
): Promise<Branch> {
  const branch = await insertDimension<Branch>(db, 'branch', { ...input, extra: { head_uuid: null } }, now);
  const request = input.startPoint;
  const startPoint = request?.branch
    ? await resolveStartPoint(db, input.projectUuid, resolveId(request.branch), request.hash)
    : undefined;
  await startNewHead(
    db,
    branch,
    startPoint,
    {
      maxVersions: request?.max_versions ?? DEFAULT_MAX_VERSIONS,
      cloneThresholds: request?.clone_thresholds ?? false,
    },
    now,
  );
  return branch;
}

/** Bencher's `update_start_point_if_changed` (§6.1): a new head only when the start point really changed. */
export async function updateStartPoint(
  db: Db,
  branch: Branch,
  request: StartPointRequest,
  resolveId: (text: string) => NameId,
  now = Date.now(),
): Promise<void> {
  const startPoint = request.branch
    ? await resolveStartPoint(db, branch.project_uuid, resolveId(request.branch), request.hash)
    : undefined;
  const current = branch.head_uuid
    ? await db.selectFrom('head').selectAll().where('uuid', '=', branch.head_uuid).executeTakeFirst()
    : undefined;
  let changed = request.reset === true;
  if (!changed && startPoint) {
    if (!current?.start_head_uuid || !current.start_version_uuid) changed = true;
    else {
      const [currentHead, currentVersion] = await Promise.all([
        db.selectFrom('head').select('branch_uuid').where('uuid', '=', current.start_head_uuid).executeTakeFirst(),
        db.selectFrom('version').select('hash').where('uuid', '=', current.start_version_uuid).executeTakeFirst(),
      ]);
      const requestedHash = request.hash ? request.hash.toLowerCase() : undefined;
      if (currentHead?.branch_uuid !== startPoint.branch.uuid) changed = true;
      else if (requestedHash && currentVersion?.hash !== requestedHash) changed = true;
    }
  }
  if (!changed) return;
  await startNewHead(
    db,
    branch,
    startPoint,
    {
      maxVersions: request.max_versions ?? DEFAULT_MAX_VERSIONS,
      cloneThresholds: request.clone_thresholds ?? false,
    },
    now,
  );
}

/**
 * Reads the heads, serialising the numbering of their versions until the transaction ends: PostgreSQL
 * locks the heads' rows (without it, reports committed side by side read the same highest number and
 * share it); SQLite runs one writing transaction at a time already. Rows are locked in uuid order, so two
 * transactions locking overlapping sets (deleting reports whose version several heads share) cannot deadlock.
 */
export async function lockHeads(db: Db, headUuids: readonly string[]): Promise<Head[]> {
  if (headUuids.length === 0) return [];
  const query = db.selectFrom('head').selectAll().where('uuid', 'in', headUuids).orderBy('uuid');
  return (dialectOf(db as Kysely<unknown>) === 'postgres' ? query.forUpdate() : query).execute();
}

/** A report's version and head, and the rows that store the version when it is new (`insertRows` parts). */
export interface ReportVersion {
  version: Version;
  head: Head;
  rows: TableRows[];
}

/**
 * The version a report on this head belongs to: the head's newest version with the same hash, or the next
 * number, found in one statement. Concurrent reports on one head take their versions in turn (`lockHeads`).
 */
export async function versionForReport(
  db: Db,
  projectUuid: string,
  headUuid: string,
  hash: string | undefined,
): Promise<ReportVersion> {
  const [head] = await lockHeads(db, [headUuid]);
  if (!head) throw new Error(`head ${headUuid} not found`);
  const { rows } = await sql<{ uuid: string | null; number: number | null; top: number | null }>`
    select hashed.uuid, hashed.number, (select max(number) from head_version where head_uuid = ${headUuid}) as top
    from (select 1 as one) as head
    left join (
      select v.uuid, v.number from version v
      where v.project_uuid = ${projectUuid} and v.hash = ${hash ?? null}
        and exists (select 1 from head_version hv where hv.head_uuid = ${headUuid} and hv.version_uuid = v.uuid)
      order by v.number desc
      limit 1
    ) as hashed on true`.execute(db);
  const found = rows[0];
  if (found?.uuid) {
    const version = { uuid: found.uuid, project_uuid: projectUuid, number: Number(found.number), hash: hash ?? null };
    return { version, head, rows: [] };
  }
  const top = found?.top;
  const version: Version = {
    uuid: randomUUID(),
    project_uuid: projectUuid,
    number: top === null || top === undefined ? 0 : Number(top) + 1,
    hash: hash ?? null,
  };
  return {
    version,
    head,
    rows: [
      { table: 'version', rows: [version] },
      { table: 'head_version', rows: [{ head_uuid: headUuid, version_uuid: version.uuid, number: version.number }] },
    ],
  };
}

/** Deletes a branch with its heads; fails on a foreign key while reports or thresholds use it. */
export async function deleteBranch(db: Db, branch: Branch): Promise<void> {
  await db.updateTable('branch').set({ head_uuid: null }).where('uuid', '=', branch.uuid).execute();
  const heads = db.selectFrom('head').select('uuid').where('branch_uuid', '=', branch.uuid);
  await db.deleteFrom('head_version').where('head_uuid', 'in', heads).execute();
  await db.deleteFrom('head').where('branch_uuid', '=', branch.uuid).execute();
  await db.deleteFrom('branch').where('uuid', '=', branch.uuid).execute();
}
