import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { serialPrimaryKey } from './serial.js';

const DOUBLE = sql`double precision`;

/** The tenancy schema: accounts, projects, grants, allocations, rates, resources, requests, keys, usage. */
export const projectMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const serial = serialPrimaryKey(db);
    await db.schema
      .createTable('account')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('oidc_subject', 'text', (c) => c.unique())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('project')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('organisation', 'text')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('project_member')
      .addColumn('project_id', 'text', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_member_pk', ['project_id', 'account_id'])
      .execute();
    await db.schema.createIndex('project_member_account').on('project_member').column('account_id').execute();
    await db.schema
      .createTable('project_grant')
      .addColumn('id', 'integer', serial)
      .addColumn('project_id', 'text', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('starts', 'bigint', (c) => c.notNull())
      .addColumn('ends', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_grant_project').on('project_grant').columns(['project_id', 'ends']).execute();
    await db.schema
      .createTable('allocation')
      .addColumn('project_id', 'text', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('cluster', 'text', (c) => c.notNull())
      .addColumn('node_hours', DOUBLE, (c) => c.notNull())
      .addPrimaryKeyConstraint('allocation_pk', ['project_id', 'cluster'])
      .execute();
    await db.schema
      .createTable('node_hour_rate')
      .addColumn('cluster', 'text', (c) => c.notNull())
      .addColumn('effective_from', 'bigint', (c) => c.notNull())
      .addColumn('credits_per_node_hour', DOUBLE, (c) => c.notNull())
      .addPrimaryKeyConstraint('node_hour_rate_pk', ['cluster', 'effective_from'])
      .execute();
    await db.schema
      .createTable('inference_resource')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().unique().references('project.id').onDelete('cascade'))
      .addColumn('credits_total', 'bigint', (c) => c.notNull())
      .addColumn('credits_used', 'bigint', (c) => c.notNull())
      .addColumn('requests_per_minute', 'integer')
      .addColumn('tokens_per_minute', 'integer')
      .addColumn('concurrent_requests', 'integer')
      .addColumn('window_minute', 'bigint', (c) => c.notNull())
      .addColumn('window_requests', 'integer', (c) => c.notNull())
      .addColumn('window_tokens', 'bigint', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('service_request')
      .addColumn('id', 'integer', serial)
      .addColumn('project_id', 'text', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('requested_by', 'text', (c) => c.notNull().references('account.id'))
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('node_hours', DOUBLE, (c) => c.notNull())
      .addColumn('cluster', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('decided_by', 'text', (c) => c.references('account.id'))
      .addColumn('decided_at', 'bigint')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('service_request_status').on('service_request').columns(['status', 'id']).execute();
    await db.schema
      .createTable('api_key')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('resource_id', 'text', (c) => c.notNull().references('inference_resource.id').onDelete('cascade'))
      .addColumn('alias', 'text', (c) => c.notNull())
      .addColumn('alias_key', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('secret_hint', 'text', (c) => c.notNull())
      .addColumn('budget_tokens', 'bigint')
      .addColumn('reset_period', 'text')
      .addColumn('allowed_models', 'text')
      .addColumn('created_by', 'text', (c) => c.references('account.id'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('revoked', 'bigint')
      .addColumn('last_used', 'bigint')
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('period_used', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('api_key_alias_unique', ['resource_id', 'alias_key'])
      .execute();
    await db.schema
      .createTable('usage_hourly')
      .addColumn('key_id', 'text', (c) => c.notNull().references('api_key.id').onDelete('cascade'))
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('hour', 'bigint', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
      .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      // Every UI query is "one key (or the keys of one resource), a time range": key first, then hour.
      .addPrimaryKeyConstraint('usage_hourly_pk', ['key_id', 'hour', 'model'])
      .execute();
    await db.schema
      .createTable('ui_session')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.references('account.id').onDelete('cascade'))
      .addColumn('key_id', 'text', (c) => c.references('api_key.id').onDelete('cascade'))
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('announcement')
      .addColumn('id', 'integer', serial)
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('starts', 'bigint', (c) => c.notNull())
      .addColumn('ends', 'bigint', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('announcement_ends').on('announcement').column('ends').execute();
    await db.schema
      .createTable('announcement_opt_out')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
      .execute();
    await db.schema
      .createTable('outbox')
      .addColumn('id', 'integer', serial)
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
  },
};
