import { join } from 'node:path';
import { type Database, openMigratedDatabase } from '@atrium/core';
import { inferenceMigrations } from './migrations/index.js';
import type { InferenceDatabase } from './schema.js';

export const openInferenceDatabase = (url: string): Promise<Database<InferenceDatabase>> =>
  openMigratedDatabase<InferenceDatabase>(url, 'inference', inferenceMigrations);

/** The configured database, else `inference.db` in the data directory. */
export const inferenceDatabaseUrl = (config: { database?: string | undefined }, dataDir: string): string =>
  config.database ?? `sqlite:${join(dataDir, 'inference.db')}`;
