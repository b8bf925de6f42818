import type { CreateTableBuilder, Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: column names are built up dynamically by the helpers below
type Table = CreateTableBuilder<string, any>;

const uuid = (table: Table) => table.addColumn('uuid', 'text', (c) => c.primaryKey());
const ref = (table: Table, column: string, target: string, nullable = false) =>
  table.addColumn(column, 'text', (c) => {
    const typed = c.references(`${target}.uuid`);
    return nullable ? typed : typed.notNull();
  });
const time = (table: Table, column: string, nullable = false) =>
  table.addColumn(column, 'bigint', (c) => (nullable ? c : c.notNull()));
const text = (table: Table, column: string, nullable = false) =>
  table.addColumn(column, 'text', (c) => (nullable ? c : c.notNull()));
const real = (table: Table, column: string, nullable = true) =>
  table.addColumn(column, 'double precision', (c) => (nullable ? c : c.notNull()));
const integer = (table: Table, column: string, nullable = false) =>
  table.addColumn(column, 'integer', (c) => (nullable ? c : c.notNull()));

async function dimension(db: Kysely<unknown>, name: string, extra: (table: Table) => Table = (t) => t) {
  let table: Table = db.schema.createTable(name);
  table = uuid(table);
  table = ref(table, 'project_uuid', 'project');
  table = text(table, 'name');
  table = text(table, 'slug');
  table = extra(table);
  table = time(table, 'created');
  table = time(table, 'modified');
  table = time(table, 'archived', true);
  await table
    .addUniqueConstraint(`${name}_project_slug`, ['project_uuid', 'slug'])
    .addUniqueConstraint(`${name}_project_name`, ['project_uuid', 'name'])
    .execute();
}

export const schemaMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const s = db.schema;
    let t: Table;

    t = uuid(s.createTable('user'));
    t = text(text(text(t, 'name'), 'slug'), 'email');
    t = integer(integer(t, 'admin'), 'locked');
    await time(time(t, 'created'), 'modified')
      .addUniqueConstraint('user_slug', ['slug'])
      .addUniqueConstraint('user_email', ['email'])
      .execute();

    t = uuid(s.createTable('organization'));
    t = text(text(t, 'name'), 'slug');
    await time(time(time(t, 'created'), 'modified'), 'deleted', true)
      .addUniqueConstraint('organization_slug', ['slug'])
      .execute();

    t = ref(ref(s.createTable('organization_role'), 'organization_uuid', 'organization'), 'user_uuid', 'user');
    await time(text(t, 'role'), 'created')
      .addPrimaryKeyConstraint('organization_role_pk', ['organization_uuid', 'user_uuid'])
      .execute();

    t = ref(uuid(s.createTable('project')), 'organization_uuid', 'organization');
    t = text(text(text(text(t, 'name'), 'slug'), 'url', true), 'visibility');
    await time(time(time(t, 'created'), 'modified'), 'deleted', true)
      .addUniqueConstraint('project_slug', ['slug'])
      .execute();

    t = ref(ref(s.createTable('project_role'), 'project_uuid', 'project'), 'user_uuid', 'user');
    await time(text(t, 'role'), 'created')
      .addPrimaryKeyConstraint('project_role_pk', ['project_uuid', 'user_uuid'])
      .execute();

    t = text(uuid(s.createTable('api_key')), 'kind');
    t = ref(ref(t, 'user_uuid', 'user', true), 'project_uuid', 'project', true);
    t = text(text(t, 'name'), 'key_hash');
    await time(time(time(t, 'creation'), 'expiration'), 'revoked', true)
      .addUniqueConstraint('api_key_hash', ['key_hash'])
      .execute();

    await dimension(db, 'branch', (table) => table.addColumn('head_uuid', 'text'));
    await dimension(db, 'testbed');
    await dimension(db, 'benchmark');
    await dimension(db, 'measure', (table) => text(table, 'units'));

    t = integer(ref(uuid(s.createTable('version')), 'project_uuid', 'project'), 'number');
    await text(t, 'hash', true).execute();

    t = ref(uuid(s.createTable('head')), 'branch_uuid', 'branch');
    t = ref(ref(t, 'start_head_uuid', 'head', true), 'start_version_uuid', 'version', true);
    await time(time(t, 'created'), 'replaced', true).execute();

    await ref(ref(s.createTable('head_version'), 'head_uuid', 'head'), 'version_uuid', 'version')
      .addPrimaryKeyConstraint('head_version_pk', ['head_uuid', 'version_uuid'])
      .execute();

    t = ref(ref(uuid(s.createTable('threshold')), 'project_uuid', 'project'), 'branch_uuid', 'branch');
    t = ref(ref(t, 'testbed_uuid', 'testbed'), 'measure_uuid', 'measure');
    await time(time(t.addColumn('model_uuid', 'text'), 'created'), 'modified')
      .addUniqueConstraint('threshold_dimensions', ['branch_uuid', 'testbed_uuid', 'measure_uuid'])
      .execute();

    t = text(ref(uuid(s.createTable('model')), 'threshold_uuid', 'threshold'), 'test');
    t = integer(integer(integer(t, 'min_sample_size', true), 'max_sample_size', true), 'window', true);
    t = real(real(t, 'lower_boundary'), 'upper_boundary');
    await time(time(t, 'created'), 'replaced', true).execute();

    t = ref(ref(uuid(s.createTable('report')), 'project_uuid', 'project'), 'user_uuid', 'user', true);
    t = ref(ref(ref(t, 'head_uuid', 'head'), 'version_uuid', 'version'), 'testbed_uuid', 'testbed');
    await time(time(time(text(t, 'adapter'), 'start_time'), 'end_time'), 'created').execute();

    t = integer(ref(uuid(s.createTable('report_benchmark')), 'report_uuid', 'report'), 'iteration');
    await ref(t, 'benchmark_uuid', 'benchmark').execute();

    t = ref(ref(uuid(s.createTable('metric')), 'report_benchmark_uuid', 'report_benchmark'), 'measure_uuid', 'measure');
    await real(real(real(t, 'value', false), 'lower_value'), 'upper_value').execute();

    t = ref(ref(uuid(s.createTable('boundary')), 'metric_uuid', 'metric'), 'threshold_uuid', 'threshold');
    t = ref(t, 'model_uuid', 'model');
    await real(real(real(t, 'baseline'), 'lower_limit'), 'upper_limit')
      .addUniqueConstraint('boundary_metric', ['metric_uuid'])
      .execute();

    t = text(text(ref(uuid(s.createTable('alert')), 'boundary_uuid', 'boundary'), 'boundary_limit'), 'status');
    await time(time(t, 'created'), 'modified').addUniqueConstraint('alert_boundary', ['boundary_uuid']).execute();

    const indexes: [string, string, string[]][] = [
      ['organization_role_user', 'organization_role', ['user_uuid']],
      ['project_organization', 'project', ['organization_uuid']],
      ['project_role_user', 'project_role', ['user_uuid']],
      ['head_branch', 'head', ['branch_uuid']],
      ['version_project_hash', 'version', ['project_uuid', 'hash']],
      // Sample selection and perf: versions visible through a head, newest first.
      ['head_version_version', 'head_version', ['version_uuid', 'head_uuid']],
      ['report_version_testbed', 'report', ['version_uuid', 'testbed_uuid']],
      ['report_head', 'report', ['head_uuid']],
      ['report_project_time', 'report', ['project_uuid', 'start_time']],
      ['report_project_created', 'report', ['project_uuid', 'created']],
      ['report_benchmark_report', 'report_benchmark', ['report_uuid', 'benchmark_uuid']],
      ['report_benchmark_benchmark', 'report_benchmark', ['benchmark_uuid', 'report_uuid']],
      ['metric_report_benchmark_measure', 'metric', ['report_benchmark_uuid', 'measure_uuid']],
      ['threshold_project', 'threshold', ['project_uuid']],
      ['model_threshold', 'model', ['threshold_uuid']],
      ['boundary_threshold', 'boundary', ['threshold_uuid']],
      ['alert_status', 'alert', ['status', 'modified']],
      ['api_key_user', 'api_key', ['user_uuid']],
    ];
    for (const [name, table, columns] of indexes) {
      await s.createIndex(name).on(table).columns(columns).execute();
    }
  },
};
