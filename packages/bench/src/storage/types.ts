import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  AlertTable,
  ApiKeyTable,
  BenchDatabase,
  BranchTable,
  DimensionColumns,
  HeadTable,
  MeasureTable,
  ModelTable,
  OrganizationTable,
  PlotTable,
  ProjectTable,
  ThresholdTable,
  UserTable,
  VersionTable,
} from './schema.js';

/** A connection or an open transaction. */
export type Db = Kysely<BenchDatabase> | Transaction<BenchDatabase>;

export type User = Selectable<UserTable>;
export type ApiKey = Selectable<ApiKeyTable>;
/** `claimed`: when the organisation's first member joined; null while nobody has (an anonymous run's). */
export type Organization = Selectable<OrganizationTable> & { claimed: number | null };
export type Project = Selectable<ProjectTable> & { claimed: number | null };
export type Branch = Selectable<BranchTable>;
export type Dimension = Selectable<DimensionColumns>;
export type Measure = Selectable<MeasureTable>;
export type Head = Selectable<HeadTable>;
export type Version = Selectable<VersionTable>;
export type Threshold = Selectable<ThresholdTable>;
export type ModelRow = Selectable<ModelTable>;
export type AlertRow = Selectable<AlertTable>;
export type Plot = Selectable<PlotTable>;

/** Runs `work` in a transaction unless `db` already is one. */
export function inTransaction<T>(db: Db, work: (trx: Transaction<BenchDatabase>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<BenchDatabase>) : db.transaction().execute(work);
}
