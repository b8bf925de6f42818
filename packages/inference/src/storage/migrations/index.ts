import type { Migrations } from '@atrium/core';
import { projectMigration } from './0001_project.js';

export const inferenceMigrations: Migrations = {
  '0001_project': projectMigration,
};
