import { type Kysely, sql } from 'kysely';
import type { AiidaStore } from './open.js';
import { toDate } from './rows.js';
import type { AiidaDatabase, AiidaTable } from './schema.js';

/** Parent tables first, so foreign keys hold while copying. */
const TABLES: AiidaTable[] = [
  'db_dbuser',
  'db_dbcomputer',
  'db_dbnode',
  'db_dblink',
  'db_dbgroup',
  'db_dbgroup_dbnodes',
  'db_dbcomment',
  'db_dblog',
];
const TIME_COLUMNS = new Set(['ctime', 'mtime', 'time']);
/** Columns AiiDA's PostgreSQL schema declares NOT NULL DEFAULT '' (archives may hold NULL there). */
const TEXT_DEFAULTS = new Set([
  'hostname',
  'description',
  'scheduler_type',
  'transport_type',
  'first_name',
  'last_name',
  'institution',
  'label',
  'content',
  'message',
  'type_string',
]);
const PAGE = 5000;
const BATCH = 2000;

/**
 * Copies every row of an archive's database into tables created by `createAiidaTables` on
 * PostgreSQL (timestamps become timestamptz, JSON text becomes JSONB), page by page.
 */
export async function copyAiidaRows(from: AiidaStore, to: Kysely<AiidaDatabase>): Promise<void> {
  for (const table of TABLES) {
    for (let lastId = 0; ; ) {
      const { rows } = await sql<Record<string, unknown>>`
        select * from ${sql.table(table)} where id > ${lastId} order by id limit ${PAGE}`.execute(from.db);
      if (rows.length === 0) break;
      lastId = Number(rows[rows.length - 1]?.id);
      for (const row of rows) {
        for (const key of Object.keys(row)) {
          if (TIME_COLUMNS.has(key) && row[key] != null) row[key] = toDate(row[key] as string);
          if (row[key] === null && TEXT_DEFAULTS.has(key)) row[key] = '';
        }
      }
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH);
        const columns = Object.keys(batch[0] ?? {});
        const values = batch.map((row) => sql`(${sql.join(columns.map((c) => row[c]))})`);
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(
          to,
        );
      }
    }
  }
}
