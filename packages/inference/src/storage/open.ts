import { type Database, openMigratedDatabase } from '@atrium/core';
import { inferenceMigrations } from './migrations/index.js';
import type { InferenceDatabase } from './schema.js';

export const openInferenceDatabase = (url: string): Promise<Database<InferenceDatabase>> =>
  openMigratedDatabase<InferenceDatabase>(url, 'inference', inferenceMigrations);
