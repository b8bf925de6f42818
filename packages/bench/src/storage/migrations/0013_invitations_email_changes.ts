import type { Kysely, Migration } from 'kysely';

/**
 * Invitations become server state (one row per invitation JWT, keyed by its `jti`): they expire, work once and can
 * be revoked. E-mail changes wait for the new address to confirm. Invitations sent before this migration have no
 * row and are refused.
 */
export const invitationsEmailChangesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('invitation')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organization.uuid'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('inviter_uuid', 'text', (c) => c.notNull().references('user.uuid'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('invitation_organization_state')
      .on('invitation')
      .columns(['organization_uuid', 'state'])
      .execute();

    await db.schema
      .createTable('email_change')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().unique().references('user.uuid'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
  },
};
