import { type Kysely, sql } from 'kysely';
import type { AiidaDialect } from './open.js';
import type { AiidaDatabase } from './schema.js';

/**
 * Creates AiiDA's tables (the subset the REST API reads) in an empty database, as `verdi storage
 * migrate` would: JSONB and timestamptz on PostgreSQL, JSON text and naive-UTC text on SQLite.
 * Bulk loaders add `createServingIndexes` after loading.
 */
export async function createAiidaTables(db: Kysely<AiidaDatabase>, dialect: AiidaDialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`json`;
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`datetime`;
  const serial = dialect === 'postgres' ? sql`serial primary key` : sql`integer primary key`;
  const statements = [
    sql`create table db_dbuser (id ${serial}, email varchar(254) not null unique, first_name varchar(254) not null default '', last_name varchar(254) not null default '', institution varchar(254) not null default '')`,
    sql`create table db_dbcomputer (id ${serial}, uuid char(36) not null unique, label varchar(255) not null unique, hostname varchar(255) not null default '', description text not null default '', scheduler_type varchar(255) not null default '', transport_type varchar(255) not null default '', metadata ${json} not null)`,
    sql`create table db_dbnode (id ${serial}, uuid char(36) not null unique, node_type varchar(255) not null default '', process_type varchar(255), label varchar(255) not null default '', description text not null default '', ctime ${time} not null, mtime ${time} not null, attributes ${json}, extras ${json}, repository_metadata ${json} not null, dbcomputer_id integer references db_dbcomputer (id), user_id integer not null references db_dbuser (id))`,
    sql`create table db_dblink (id ${serial}, input_id integer not null references db_dbnode (id), output_id integer not null references db_dbnode (id), label varchar(255) not null, type varchar(255) not null)`,
    sql`create table db_dbgroup (id ${serial}, uuid char(36) not null unique, label varchar(255) not null, type_string varchar(255) not null default '', time ${time} not null, description text not null default '', extras ${json} not null, user_id integer not null references db_dbuser (id), unique (label, type_string))`,
    sql`create table db_dbgroup_dbnodes (id ${serial}, dbnode_id integer not null references db_dbnode (id), dbgroup_id integer not null references db_dbgroup (id), unique (dbgroup_id, dbnode_id))`,
    sql`create table db_dbcomment (id ${serial}, uuid char(36) not null unique, dbnode_id integer not null references db_dbnode (id), ctime ${time} not null, mtime ${time} not null, user_id integer not null references db_dbuser (id), content text not null default '')`,
    sql`create table db_dblog (id ${serial}, uuid char(36) not null unique, time ${time} not null, loggername varchar(255) not null, levelname varchar(50) not null, dbnode_id integer not null references db_dbnode (id), message text not null default '', metadata ${json})`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/** The indexes the REST queries rely on (AiiDA creates some of them; `if not exists` keeps this idempotent). */
export const SERVING_INDEXES: [name: string, table: string, columns: string][] = [
  ['atrium_node_ctime', 'db_dbnode', 'ctime'],
  ['atrium_node_mtime', 'db_dbnode', 'mtime'],
  ['atrium_node_types', 'db_dbnode', 'node_type, process_type'],
  ['atrium_node_user', 'db_dbnode', 'user_id'],
  ['atrium_link_input', 'db_dblink', 'input_id'],
  ['atrium_link_output', 'db_dblink', 'output_id'],
  ['atrium_log_node', 'db_dblog', 'dbnode_id'],
  ['atrium_comment_node', 'db_dbcomment', 'dbnode_id'],
  ['atrium_group_nodes_node', 'db_dbgroup_dbnodes', 'dbnode_id'],
];

/**
 * Both backends: a covering index for the totals and page ids of the common filter combination
 * (`ctime>…` with a node type or full type), read without touching the table.
 */
export const COVERING_INDEXES: [name: string, table: string, columns: string][] = [
  ['atrium_node_ctime_types', 'db_dbnode', 'ctime, node_type, process_type, id'],
];

/** SQLite cache copies only: label prefixes and equality (`label=like="pw%"`; PostgreSQL has the trigram index). */
export const CACHE_INDEXES: [name: string, table: string, columns: string][] = [
  ['atrium_node_label', 'db_dbnode', 'label'],
];

/**
 * PostgreSQL only: LIKE prefix filters (`node_type=like="data%"`, full types) use a btree only through the
 * pattern operator class unless the database collation is C (AiiDA's own schema has these).
 */
export const PATTERN_INDEXES: [name: string, table: string, columns: string][] = [
  ['atrium_node_type_pattern', 'db_dbnode', 'node_type varchar_pattern_ops'],
  ['atrium_node_process_type_pattern', 'db_dbnode', 'process_type varchar_pattern_ops'],
];

/**
 * SQLite cache copies: an FTS5 trigram index (case-sensitive) over node labels and descriptions, so that
 * substring filters (`label=like="%relax%"`) look rows up instead of scanning every node.
 */
export const NODE_TEXT_TABLE = 'atrium_node_text';
export const NODE_TEXT_INDEX = [
  `create virtual table if not exists ${NODE_TEXT_TABLE} using fts5(label, description, content='db_dbnode', content_rowid='id', tokenize='trigram case_sensitive 1')`,
  `insert into ${NODE_TEXT_TABLE}(${NODE_TEXT_TABLE}) values('rebuild')`,
];

/**
 * PostgreSQL: trigram (pg_trgm GIN) indexes for substring filters (`label=like="%…%"`, `description`);
 * PostgreSQL's planner uses them for `LIKE '%…%'` by itself once they exist.
 */
export const TRIGRAM_INDEXES: [name: string, table: string, column: string][] = [
  ['atrium_node_label_trgm', 'db_dbnode', 'label'],
  ['atrium_node_description_trgm', 'db_dbnode', 'description'],
];
export const TRIGRAM_EXTENSION = 'create extension if not exists pg_trgm schema public';
export const trigramIndex = (table: string, column: string, name = '') =>
  `create index ${name ? `if not exists ${name} ` : ''}on ${table} using gin (${column} public.gin_trgm_ops)`;

/** The serving and covering indexes (and on PostgreSQL the pattern and trigram ones) for databases we load ourselves (tests, bench). */
export async function createServingIndexes(
  db: Kysely<AiidaDatabase>,
  dialect: AiidaDialect = 'postgres',
): Promise<void> {
  const indexes = [
    ...SERVING_INDEXES,
    ...COVERING_INDEXES,
    ...(dialect === 'postgres' ? PATTERN_INDEXES : CACHE_INDEXES),
  ];
  for (const [name, table, columns] of indexes) {
    await sql`create index if not exists ${sql.raw(name)} on ${sql.table(table)} (${sql.raw(columns)})`.execute(db);
  }
  if (dialect !== 'postgres') return;
  await sql.raw(TRIGRAM_EXTENSION).execute(db);
  for (const [name, table, column] of TRIGRAM_INDEXES) await sql.raw(trigramIndex(table, column, name)).execute(db);
}
