import { type Database, openMigratedDatabase } from '@atrium/core';
import { provenanceMigrations } from './migrations/index.js';
import type { ProvenanceDatabase } from './schema.js';

export const openProvenanceDatabase = (url: string): Promise<Database<ProvenanceDatabase>> =>
  openMigratedDatabase<ProvenanceDatabase>(url, 'provenance', provenanceMigrations);
