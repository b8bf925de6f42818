import { type Database, openMigratedDatabase } from '@atrium/core';
import { benchMigrations } from './migrations/index.js';
import type { BenchDatabase } from './schema.js';

export const openBenchDatabase = (url: string): Promise<Database<BenchDatabase>> =>
  openMigratedDatabase<BenchDatabase>(url, 'bench', benchMigrations);
