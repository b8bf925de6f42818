import type { Migrations } from '@atrium/core';
import { schemaMigration } from './0001_schema.js';
import { reportIdempotencyMigration } from './0002_report_idempotency.js';
import { plotsMigration } from './0003_plots.js';
import { memberModifiedMigration } from './0004_member_modified.js';
import { alertProjectMigration } from './0005_alert_project.js';
import { anonymousCreationsMigration } from './0006_anonymous_creations.js';
import { perfCoveringMigration } from './0007_perf_covering.js';
import { accountsMigration } from './0008_accounts.js';
import { headVersionNumberMigration } from './0009_head_version_number.js';
import { reportListMigration } from './0010_report_list.js';
import { metricReportMigration } from './0011_metric_report.js';
import { reportUsageMigration } from './0012_report_usage.js';
import { invitationsEmailChangesMigration } from './0013_invitations_email_changes.js';
import { changePointsMigration } from './0014_change_points.js';

export const benchMigrations: Migrations = {
  '0001_schema': schemaMigration,
  '0002_report_idempotency': reportIdempotencyMigration,
  '0003_plots': plotsMigration,
  '0004_member_modified': memberModifiedMigration,
  '0005_alert_project': alertProjectMigration,
  '0006_anonymous_creations': anonymousCreationsMigration,
  '0007_perf_covering': perfCoveringMigration,
  '0008_accounts': accountsMigration,
  '0009_head_version_number': headVersionNumberMigration,
  '0010_report_list': reportListMigration,
  '0011_metric_report': metricReportMigration,
  '0012_report_usage': reportUsageMigration,
  '0013_invitations_email_changes': invitationsEmailChangesMigration,
  '0014_change_points': changePointsMigration,
};
