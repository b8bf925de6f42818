import type { Migrations } from '@atrium/core';
import { organizationMigration } from './0001_organization.js';

export const benchMigrations: Migrations = {
  '0001_organization': organizationMigration,
};
