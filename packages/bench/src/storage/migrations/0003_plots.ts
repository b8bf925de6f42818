import type { Kysely, Migration } from 'kysely';

/** Pinned plots; each dimension list is a JSON array of UUIDs in the order given. */
export const plotsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('plot')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('project_uuid', 'text', (c) => c.references('project.uuid').notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('lower_value', 'integer', (c) => c.notNull())
      .addColumn('upper_value', 'integer', (c) => c.notNull())
      .addColumn('lower_boundary', 'integer', (c) => c.notNull())
      .addColumn('upper_boundary', 'integer', (c) => c.notNull())
      .addColumn('x_axis', 'text', (c) => c.notNull())
      .addColumn('y_axis', 'text', (c) => c.notNull())
      .addColumn('window_seconds', 'bigint', (c) => c.notNull())
      .addColumn('branches', 'text', (c) => c.notNull())
      .addColumn('testbeds', 'text', (c) => c.notNull())
      .addColumn('benchmarks', 'text', (c) => c.notNull())
      .addColumn('measures', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('modified', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plot_project_rank').on('plot').columns(['project_uuid', 'rank']).execute();
  },
};
