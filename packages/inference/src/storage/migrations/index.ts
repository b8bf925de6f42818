import type { Migrations } from '@atrium/core';
import { projectMigration } from './0001_project.js';
import { operatorMailMigration } from './0002_operator_mail.js';
import { slotLeasesMigration } from './0003_slot_leases.js';
import { usageJournalMigration } from './0004_usage_journal.js';
import { announcementDeliveryMigration } from './0005_announcement_delivery.js';
import { catalogueStateMigration } from './0006_catalogue_state.js';
import { catalogueLoadMigration } from './0007_catalogue_load.js';
import { keyManagementMigration } from './0008_key_management.js';

export const inferenceMigrations: Migrations = {
  '0001_project': projectMigration,
  '0002_operator_mail': operatorMailMigration,
  '0003_slot_leases': slotLeasesMigration,
  '0004_usage_journal': usageJournalMigration,
  '0005_announcement_delivery': announcementDeliveryMigration,
  '0006_catalogue_state': catalogueStateMigration,
  '0007_catalogue_load': catalogueLoadMigration,
  '0008_key_management': keyManagementMigration,
};
