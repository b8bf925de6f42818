import type { Migrations } from '@atrium/core';
import { schemaMigration } from './0001_schema.js';

export const benchMigrations: Migrations = {
  '0001_schema': schemaMigration,
};
