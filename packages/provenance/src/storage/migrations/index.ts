import type { Migrations } from '@atrium/core';
import { archiveMigration } from './0001_archive.js';

export const provenanceMigrations: Migrations = {
  '0001_archive': archiveMigration,
};
