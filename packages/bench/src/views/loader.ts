import type { Kysely } from 'kysely';
import { type ChangePointView, changePointsJudgedAt } from '../storage/change-points.js';
import { chunks } from '../storage/chunks.js';
import type { MetricDetail } from '../storage/metric-details.js';
import type { DimensionColumns, DimensionTableName } from '../storage/schema.js';
import type {
  Branch,
  Db,
  Dimension,
  Head,
  Measure,
  ModelRow,
  Project,
  Threshold,
  User,
  Version,
} from '../storage/types.js';
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

/** The tables whose rows a view loads by uuid. */
type PreloadedTable = DimensionTableName | 'version' | 'head' | 'model' | 'threshold' | 'user';

/**
 * Builds the nested JSON of one response, fetching each row once (memoised by uuid). A list preloads
 * the rows its items show first, so that it costs a query per table rather than per item.
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

  /**
   * Loads the rows of a table not yet in the memo in chunked `in (…)` queries, so a view of many items runs
   * one query per table rather than one per item. A uuid not found is left to the single-row loader.
   */
  async preload(table: PreloadedTable, uuids: Iterable<string | null>): Promise<void> {
    const missing = [...new Set(uuids)].filter(
      (uuid): uuid is string => uuid !== null && !this.rows.has(`${table}:${uuid}`),
    );
    const view = this.db as unknown as Kysely<Record<PreloadedTable, { uuid: string }>>;
    for await (const chunk of chunks(missing)) {
      for (const row of await view.selectFrom(table).selectAll().where('uuid', 'in', chunk).execute())
        this.remember(table, row);
    }
  }

  /** What `reportJson` shows of these reports besides their metrics: users, heads, branches, start points, testbeds. */
  async preloadReports(
    reports: readonly { user_uuid: string | null; head_uuid: string; version_uuid: string; testbed_uuid: string }[],
  ) {
    await Promise.all([
      this.preload(
        'user',
        reports.map((report) => report.user_uuid),
      ),
      this.preload(
        'head',
        reports.map((report) => report.head_uuid),
      ),
      this.preload(
        'testbed',
        reports.map((report) => report.testbed_uuid),
      ),
    ]);
    const heads = await Promise.all(reports.map((report) => this.head(report.head_uuid)));
    await this.preloadHeadsOf(
      heads,
      reports.map((report) => report.version_uuid),
    );
  }

  /** The branches of these heads, and their start points' heads and versions, with further versions. */
  private async preloadHeadsOf(heads: readonly Head[], versionUuids: readonly string[] = []) {
    await Promise.all([
      this.preload(
        'branch',
        heads.map((head) => head.branch_uuid),
      ),
      this.preload(
        'head',
        heads.map((head) => head.start_head_uuid),
      ),
      this.preload('version', [...versionUuids, ...heads.map((head) => head.start_version_uuid)]),
    ]);
  }

  /** What `threshold` shows of these thresholds: branches with their current heads, testbeds, measures, models. */
  async preloadThresholds(thresholds: readonly Threshold[], modelUuids: readonly (string | null)[] = []) {
    await Promise.all([
      this.preload(
        'branch',
        thresholds.map((threshold) => threshold.branch_uuid),
      ),
      this.preload(
        'testbed',
        thresholds.map((threshold) => threshold.testbed_uuid),
      ),
      this.preload(
        'measure',
        thresholds.map((threshold) => threshold.measure_uuid),
      ),
      this.preload('model', [...modelUuids, ...thresholds.map((threshold) => threshold.model_uuid)]),
    ]);
    const branches = await Promise.all(
      thresholds.map((threshold) => this.dimension<Branch>('branch', threshold.branch_uuid)),
    );
    await this.preload(
      'head',
      branches.map((branch) => branch.head_uuid),
    );
    const heads = await Promise.all(
      branches.flatMap((branch) => (branch.head_uuid === null ? [] : [this.head(branch.head_uuid)])),
    );
    await this.preloadHeadsOf(heads);
  }

  /** What `reportJson` (expanded) and `alertJson` show of these metrics besides their reports. */
  async preloadDetails(details: readonly MetricDetail[]) {
    await Promise.all([
      this.preload(
        'benchmark',
        details.map((detail) => detail.benchmark_uuid),
      ),
      this.preload(
        'measure',
        details.map((detail) => detail.measure_uuid),
      ),
      this.preload(
        'threshold',
        details.map((detail) => detail.threshold_uuid),
      ),
    ]);
    const alerting = details.flatMap((detail) =>
      detail.alert_uuid !== null && detail.threshold_uuid !== null ? [this.thresholdRow(detail.threshold_uuid)] : [],
    );
    await this.preloadThresholds(
      await Promise.all(alerting),
      details.map((detail) => detail.model_uuid),
    );
    const changeAlerts = await Promise.all(
      details.map(async (detail) =>
        detail.alert_uuid !== null && (await this.model(detail.model_uuid))?.test === 'change_point'
          ? [detail.metric_uuid]
          : [],
      ),
    );
    await this.preloadChangePoints(changeAlerts.flat());
  }

  /** The change point found when this metric was judged (an alert of a `change_point` threshold), if any. */
  changePointJudgedAt(metricUuid: string): Promise<ChangePointView | undefined> {
    return this.once(`change_point:${metricUuid}`, async () =>
      (await changePointsJudgedAt(this.db, [metricUuid])).get(metricUuid),
    );
  }

  /** Reads the change points of these alerting metrics in one query. */
  private async preloadChangePoints(metricUuids: readonly string[]) {
    const missing = metricUuids.filter((uuid) => !this.rows.has(`change_point:${uuid}`));
    if (missing.length === 0) return;
    const found = await changePointsJudgedAt(this.db, missing);
    for (const uuid of missing) this.rows.set(`change_point:${uuid}`, Promise.resolve(found.get(uuid)));
  }

  /** Seeds the memo with rows already in hand. */
  remember(table: PreloadedTable, row: { uuid: string }): void {
    this.rows.set(`${table}:${row.uuid}`, Promise.resolve(row));
  }

  user(uuid: string | null): Promise<User | undefined> {
    if (uuid === null) return Promise.resolve(undefined);
    return this.once(`user:${uuid}`, () =>
      this.db.selectFrom('user').selectAll().where('uuid', '=', uuid).executeTakeFirst(),
    );
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
