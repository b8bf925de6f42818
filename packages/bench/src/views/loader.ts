import type { Kysely } from 'kysely';
import { chunks } from '../storage/chunks.js';
import { findDimensionsByUuid } from '../storage/dimensions.js';
import type { DimensionColumns, DimensionTableName } from '../storage/schema.js';
import type { Branch, Db, Dimension, Head, Measure, ModelRow, Project, Threshold, Version } from '../storage/types.js';
import {
  jsonBranch,
  jsonDimension,
  jsonHead,
  jsonMeasure,
  jsonModel,
  jsonTestbed,
  type StartPointRef,
} from '../wire/json.js';
import { toDateTime } from '../wire/time.js';

/**
 * Builds the nested JSON of one response, fetching each row once (memoised by uuid), so a list of
 * alerts or thresholds costs a query per distinct entity rather than per item.
 */
export class ViewLoader {
  private readonly rows = new Map<string, Promise<unknown>>();

  constructor(
    readonly db: Db,
    readonly project: Project,
  ) {}

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.rows.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load();
      this.rows.set(key, found);
    }
    return found;
  }

  dimension<T extends Dimension = Dimension>(table: DimensionTableName, uuid: string): Promise<T> {
    return this.once(`${table}:${uuid}`, async () => {
      const view = this.db as unknown as Kysely<{ dimension: DimensionColumns }>;
      return (await view
        .selectFrom(table as 'dimension')
        .selectAll()
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow()) as unknown as T;
    });
  }

  /** Loads rows of a dimension table in chunked queries, so a view of thousands of them runs a few queries. */
  async preload(table: DimensionTableName, uuids: Iterable<string>): Promise<void> {
    const missing = [...new Set(uuids)].filter((uuid) => !this.rows.has(`${table}:${uuid}`));
    for await (const chunk of chunks(missing)) {
      for (const row of await findDimensionsByUuid(this.db, table, chunk)) this.remember(table, row);
    }
  }

  /** Seeds the memo with rows already in hand. */
  remember(table: DimensionTableName | 'version' | 'head' | 'model', row: { uuid: string }): void {
    this.rows.set(`${table}:${row.uuid}`, Promise.resolve(row));
  }

  version(uuid: string): Promise<Version> {
    return this.once(`version:${uuid}`, () =>
      this.db.selectFrom('version').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow(),
    );
  }

  head(uuid: string): Promise<Head> {
    return this.once(`head:${uuid}`, () =>
      this.db.selectFrom('head').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow(),
    );
  }

  model(uuid: string | null): Promise<ModelRow | undefined> {
    if (uuid === null) return Promise.resolve(undefined);
    return this.once(`model:${uuid}`, () =>
      this.db.selectFrom('model').selectAll().where('uuid', '=', uuid).executeTakeFirst(),
    );
  }

  async startPoint(head: Head): Promise<StartPointRef | undefined> {
    if (!head.start_head_uuid || !head.start_version_uuid) return undefined;
    const [startHead, version] = await Promise.all([
      this.head(head.start_head_uuid),
      this.version(head.start_version_uuid),
    ]);
    return { branch: startHead.branch_uuid, head: startHead.uuid, version };
  }

  /** `JsonBranch` with the given head (default: current) and, in report context, the version. */
  async branch(branchOrUuid: Branch | string, headUuid?: string, versionUuid?: string) {
    const branch =
      typeof branchOrUuid === 'string' ? await this.dimension<Branch>('branch', branchOrUuid) : branchOrUuid;
    const head = await this.head((headUuid ?? branch.head_uuid) as string);
    const [startPoint, version] = await Promise.all([
      this.startPoint(head),
      versionUuid ? this.version(versionUuid) : Promise.resolve(undefined),
    ]);
    return jsonBranch(branch, jsonHead(head, startPoint, version));
  }

  async testbed(uuid: string) {
    return jsonTestbed(await this.dimension('testbed', uuid));
  }

  async benchmark(uuid: string) {
    return jsonDimension(await this.dimension('benchmark', uuid));
  }

  async measure(uuid: string) {
    return jsonMeasure(await this.dimension<Measure>('measure', uuid));
  }

  /** `JsonThreshold` with the model current at the time (`modelUuid`), default the threshold's own. */
  async threshold(threshold: Threshold, modelUuid: string | null = threshold.model_uuid) {
    const [branch, testbed, measure, model] = await Promise.all([
      this.branch(threshold.branch_uuid),
      this.testbed(threshold.testbed_uuid),
      this.measure(threshold.measure_uuid),
      this.model(modelUuid),
    ]);
    return {
      uuid: threshold.uuid,
      project: threshold.project_uuid,
      branch,
      testbed,
      measure,
      model: model ? jsonModel(model) : null,
      created: toDateTime(threshold.created),
      modified: toDateTime(threshold.modified),
    };
  }

  thresholdRow(uuid: string): Promise<Threshold> {
    return this.once(`threshold:${uuid}`, () =>
      this.db.selectFrom('threshold').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow(),
    );
  }
}
