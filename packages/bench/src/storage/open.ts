import { type Database, type Logger, openDatabase, openMigratedDatabase } from '@atrium/core';
import { benchMigrations } from './migrations/index.js';
import type { BenchDatabase } from './schema.js';

/**
 * The bench's tables are read through their indexes from cache, where a random read costs about what a
 * sequential one does. At PostgreSQL's default `random_page_cost` of 4 the planner hashes every row of
 * `report_benchmark` for a perf window of 100 reports out of 3,000 (8 ms, growing with history) instead of
 * probing its index per report (2.8 ms); at 1.1 it still hashes when the window is most of the history.
 */
const PG_SETTINGS = { random_page_cost: '1.1' };

export const openBenchDatabase = (url: string): Promise<Database<BenchDatabase>> =>
  openMigratedDatabase<BenchDatabase>(url, 'bench', benchMigrations, { pgSettings: PG_SETTINGS });

/**
 * A read-only connection to a bench database another connection has migrated, for a worker thread: on
 * SQLite a second connection to the same file (WAL lets it read while the service writes), on PostgreSQL
 * a pool of its own.
 */
export const openBenchReader = (url: string, options: { poolSize: number; logger: Logger }): Database<BenchDatabase> =>
  openDatabase<BenchDatabase>(url, {
    readOnly: true,
    sqlitePragmas: ['busy_timeout = 5000'],
    pgSettings: PG_SETTINGS,
    poolSize: options.poolSize,
    logger: options.logger,
  });
