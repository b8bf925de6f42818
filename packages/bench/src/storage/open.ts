import { type Database, openMigratedDatabase } from '@atrium/core';
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
