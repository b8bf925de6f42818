import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '@atrium/core/testing';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipArchive } from '../src/archive/make-archive.js';
import { type OpenedArchive, openArchive } from '../src/archive/open-archive.js';
import { AiidaSqliteWriter, type NodeRow } from '../src/archive/sqlite-writer.js';
import { compileCondition, likePrefix, likeToGlob, prefixEnd } from '../src/storage/aiida/conditions.js';
import { entityColumn, listEntities } from '../src/storage/aiida/entities.js';
import { QueryMemo } from '../src/storage/aiida/memo.js';
import { type AiidaStore, openAiidaPostgres } from '../src/storage/aiida/open.js';
import type { AiidaDatabase } from '../src/storage/aiida/schema.js';
import type { Condition } from '../src/wire/full-type.js';
import type { ColumnFilter } from '../src/wire/request-params.js';
import { NODES } from '../src/wire/resources.js';
import { loadIntoPostgres } from './support/fixtures.js';

describe('LIKE patterns (escape \\) as index ranges and trigram GLOBs', () => {
  it.each([
    ['data%', 'data'],
    ['data.core.%.Int.', 'data.core.'],
    ['a\\%b%', 'a%b'],
    ['a\\_b_', 'a_b'],
    ['a\\\\b%', 'a\\b'],
    ['%x', ''],
    ['_x', ''],
    ['exact', 'exact'],
    ['ab\\', 'ab'],
    ['ü😀x%', 'ü😀x'],
  ])('likePrefix(%s) = %s', (pattern, prefix) => {
    expect(likePrefix(pattern)).toBe(prefix);
  });

  it.each([
    ['data', 'datb'],
    ['a', 'b'],
    ['a\u{d7ff}', 'a\u{e000}'],
    ['a😀', 'a😁'],
    ['a\u{10ffff}', 'b'],
    ['\u{10ffff}', undefined],
  ])('prefixEnd(%s) = %s', (prefix, end) => {
    expect(prefixEnd(prefix)).toBe(end);
  });

  it.each([
    ['%relax%', '*relax*', 5],
    ['relax%', 'relax*', 5],
    ['%a_ith%', '*a?ith*', 3],
    ['%a*ith%', '*a[*]ith*', 3],
    ['%a[b]?%', '*a[[]b][?]*', 2],
    ['%50\\%%', '*50%*', 3],
    ['%x\\_y%', '*x_y*', 3],
    ['pw', 'pw', 2],
  ])('likeToGlob(%s) = %s (longest literal run %i)', (pattern, glob, longestLiteral) => {
    expect(likeToGlob(pattern)).toEqual({ glob, longestLiteral });
  });
});

/** Nodes with ctime growing with id, as real archives have: a `ctime>` filter selects the last ids. */
const NODE_COUNT = 30_000;
const START = Date.UTC(2024, 0, 1);
const LATE = new Date(START + 27_000 * 60_000);

const LABELS = ['a%b', 'a_b', 'axb', 'A%b', 'a\\b', 'ü-label', 'relax-pw', 'RELAX', 'prelaxed', 'pw', '', 'x😀y'];
const NODE_TYPES = [
  'data.core.int.Int.',
  'Data.core.int.Int.',
  'data_core.x.',
  'datb.x.',
  'dat',
  'process.calculation.calcjob.CalcJobNode.',
  'process.workflow.workchain.WorkChainNode.',
];
const PROCESS_TYPES = [null, '', 'aiida.calculations:core.arithmetic.add', 'aiida.workflows:x'];

type TestNode = Pick<NodeRow, 'id' | 'uuid' | 'node_type' | 'process_type' | 'label' | 'description'> & { ctime: Date };

function testNodes(): TestNode[] {
  return Array.from({ length: NODE_COUNT }, (_, index) => {
    const id = index + 1;
    // Mostly plain data nodes; the special values every 97th/89th/… node, early and late ids alike.
    const rare = id % 97 === 0;
    return {
      id,
      uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      node_type: rare ? (NODE_TYPES[(id / 97) % NODE_TYPES.length] ?? '') : id % 5 ? 'data.core.int.Int.' : 'dat',
      process_type: PROCESS_TYPES[id % 89 === 0 ? (id / 89) % PROCESS_TYPES.length : 0] ?? null,
      label: id % 13 === 0 ? (LABELS[(id / 13) % LABELS.length] ?? '') : '',
      description: id % 1009 === 0 ? 'has a needle in it' : id % 1013 === 0 ? 'Needle' : '',
      ctime: new Date(START + id * 60_000),
    };
  });
}

const naiveUtc = (d: Date) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 23)}000`;

async function writeArchive(path: string, nodes: TestNode[]): Promise<void> {
  const dbPath = `${path}.sqlite3`;
  const writer = await AiidaSqliteWriter.create(dbPath);
  writer.transaction(() => {
    writer.user({ id: 1, email: 'a@b.c', first_name: 'A', last_name: 'B', institution: '' });
    for (const n of nodes) {
      writer.node({
        ...n,
        ctime: naiveUtc(n.ctime),
        mtime: naiveUtc(n.ctime),
        attributes: {},
        extras: {},
        repository_metadata: {},
        dbcomputer_id: null,
        user_id: 1,
      });
    }
  });
  writer.close();
  await zipArchive(path, dbPath, new Map());
}

/** AiiDA's `like` (case-sensitive, `%`, `_`, `\` escapes) and the other operators, in JavaScript. */
function likeRegExp(pattern: string, flags = 'su'): RegExp {
  let source = '';
  let escaped = false;
  for (const c of pattern) {
    if (!escaped && c === '\\') escaped = true;
    else {
      source += escaped
        ? c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        : c === '%'
          ? '.*'
          : c === '_'
            ? '.'
            : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      escaped = false;
    }
  }
  return new RegExp(`^${source}$`, flags);
}

function matches(condition: Condition, node: TestNode): boolean {
  if ('and' in condition) return condition.and.every((c) => matches(c, node));
  if ('or' in condition) return condition.or.some((c) => matches(c, node));
  const { column, op, value } = condition;
  const actual = node[column as keyof TestNode];
  if (value === null) return op === '!=' ? actual !== null : actual === null;
  if (actual === null) return false;
  const comparable = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  const [a, b] = [comparable(actual), comparable(value)];
  switch (op) {
    case 'like':
      return likeRegExp(String(value)).test(String(actual));
    case 'ilike':
      return likeRegExp(String(value), 'siu').test(String(actual));
    case '==':
      return a === b;
    case '>':
      return (a as number) > (b as number);
    default:
      throw new Error(`not in the oracle: ${op}`);
  }
}

const like = (column: string, value: string): ColumnFilter => ({ column, op: 'like', value });
const late: ColumnFilter = { column: 'ctime', op: '>', value: LATE };

/** Filters whose answers must not change: every case of LIKE the prefix ranges and trigram lookups touch. */
const FILTERS: [name: string, where: Condition][] = [
  ['dense prefix (walks ids)', like('node_type', 'data%')],
  ['prefix and recent ctime (index first)', { and: [like('node_type', 'data%'), late] }],
  ['case matters', like('node_type', 'Data%')],
  ['ilike ignores case', { column: 'node_type', op: 'ilike', value: 'DATA.%' }],
  ['escaped underscore is literal', like('node_type', 'data\\_%')],
  ['underscore is one character', like('node_type', 'data_%')],
  ['prefix up to the range end', like('node_type', 'dat%')],
  ['no wildcard', like('node_type', 'dat')],
  ['escaped percent in a label', like('label', 'a\\%b')],
  ['escaped underscore in a label', like('label', 'a\\_b')],
  ['underscore in a label', like('label', 'a_b')],
  ['backslash in a label', like('label', 'a\\\\b')],
  ['substring (trigram)', like('label', '%relax%')],
  ['substring upper case (trigram)', like('label', '%RELAX%')],
  ['label prefix (index)', like('label', 'relax%')],
  ['short label prefix', like('label', 'pw%')],
  ['non-ASCII prefix', like('label', 'ü%')],
  ['astral character', like('label', 'x😀%')],
  ['description substring (trigram)', like('description', '%needle%')],
  ['process_type prefix (NULLs never match)', like('process_type', 'aiida.%')],
  ['process_type any (not NULL)', like('process_type', '%')],
  ['process_type NULL', { column: 'process_type', op: '==', value: null }],
  ['uuid prefix', like('uuid', '00000000-0000-4000-8000-00000000010%')],
  ['or of prefixes', { or: [like('node_type', 'process.%'), like('label', 'a%')] }],
  ['nothing', like('node_type', 'zzz%')],
];

const PAGES: [name: string, descending: boolean, limit: number, offset: (total: number) => number][] = [
  ['first page', false, 400, () => 0],
  ['descending, small, offset', true, 7, () => 3],
  ['last rows', false, 400, (total) => Math.max(0, total - 2)],
  ['past the end', false, 10, (total) => total + 5],
];

const scratch = mkdtempSync(join(tmpdir(), 'atrium-list-plans-'));
const archivePath = join(scratch, 'plans.aiida');
const nodes = testNodes();
const runPostgres = await postgresAvailable();
beforeAll(() => writeArchive(archivePath, nodes));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pre-index semantic: the exact condition, every matching id in order. */
async function reference(store: AiidaStore, where: Condition, descending: boolean): Promise<number[]> {
  const exact = compileCondition(where, entityColumn, store.dialect);
  const { rows } = await sql<{ id: number }>`select e.id from db_dbnode as e where ${exact} order by e.id ${sql.raw(
    descending ? 'desc' : 'asc',
  )}`.execute(store.db);
  return rows.map((r) => Number(r.id));
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !runPostgres)(`list pages answer as before [${dialect}]`, () => {
    let store: AiidaStore;
    let database: TestDatabase | undefined;
    let close: () => Promise<void>;
    beforeAll(async () => {
      if (dialect === 'sqlite') {
        const archive = await openArchive(archivePath, join(scratch, `cache-${dialect}`));
        store = archive.store;
        close = () => store.close();
      } else {
        database = await createTestDatabase('postgres');
        await loadIntoPostgres(archivePath, database.url, mkdtempSync(join(scratch, 'pg-')));
        store = openAiidaPostgres(database.url, 2);
        await sql`analyze`.execute(store.db);
        close = async () => {
          await store.close();
          await database?.drop();
        };
      }
    }, 120_000);
    afterAll(() => close());

    describe.each(FILTERS)('%s', (_name, where) => {
      it.each(PAGES)('%s', async (_page, descending, limit, offsetOf) => {
        const expected = nodes.filter((n) => matches(where, n)).map((n) => n.id);
        if (descending) expected.reverse();
        expect(await reference(store, where, descending)).toEqual(expected);
        const offset = offsetOf(expected.length);
        const query = { where, orderby: [{ column: 'id', descending }] };
        const { total, rows } = await listEntities(store, NODES, ['id', 'label'], query, () => ({ limit, offset }));
        expect(total).toBe(expected.length);
        expect(rows.map((r) => Number(r.id))).toEqual(expected.slice(offset, offset + limit));
        // A second request (memoised page ids) answers the same.
        const again = await listEntities(store, NODES, ['id', 'label'], query, () => ({ limit, offset }));
        expect(again.rows).toEqual(rows);
      });
    });

    it('orders by another column as before (ctime descending, then id)', async () => {
      const where = like('node_type', 'data%');
      const query = {
        where,
        orderby: [
          { column: 'ctime', descending: true },
          { column: 'id', descending: false },
        ],
      };
      const { rows } = await listEntities(store, NODES, ['id'], query, () => ({ limit: 5, offset: 2 }));
      const expected = nodes.filter((n) => matches(where, n)).map((n) => n.id);
      expect(rows.map((r) => Number(r.id))).toEqual(expected.reverse().slice(2, 7));
    });
  });
}

/** An in-process store over a cache copy that records every statement it runs. */
function recordingStore(path: string) {
  const sqlite = new SqliteDatabase(path, { readonly: true });
  sqlite.pragma('case_sensitive_like = ON');
  const statements: CompiledQuery[] = [];
  const db = new Kysely<AiidaDatabase>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  const store: AiidaStore = {
    db,
    dialect: 'sqlite',
    memo: new QueryMemo(Number.POSITIVE_INFINITY),
    nodeText: true,
    close: () => db.destroy(),
  };
  return { store, statements, sqlite };
}

describe('query plans on a cache copy (SQLite)', () => {
  let archive: OpenedArchive;
  beforeAll(async () => {
    archive = await openArchive(archivePath, join(scratch, 'cache-plans'));
  });
  afterAll(() => archive.store.close());

  it.each([
    ['dense prefix', like('node_type', 'data%')],
    ["prefix and recent ctime (the benchmark's filtered list)", { and: [like('node_type', 'data%'), late] }],
    ["substring label (the benchmark's)", like('label', '%relax%')],
    ['label prefix', like('label', 'relax%')],
    ['full type', { and: [like('node_type', 'process.calculation.%'), like('process_type', 'aiida.calculations:%')] }],
  ] as [string, Condition][])('%s: every statement applying the filter searches an index', async (_name, where) => {
    const { store, statements, sqlite } = recordingStore(archive.databasePath);
    try {
      const query = { where, orderby: [{ column: 'id', descending: false }] };
      await listEntities(store, NODES, NODES.projection, query, () => ({ limit: 400, offset: 0 }));
      const filtering = statements.filter((s) => /\blike\b/.test(s.sql));
      expect(filtering.length).toBeGreaterThan(0);
      for (const statement of filtering) {
        const plan = sqlite
          .prepare(`explain query plan ${statement.sql}`)
          .all(...statement.parameters)
          .map((row) => (row as { detail: string }).detail);
        expect(
          plan.filter((detail) => /^SCAN (e|db_dbnode)\b/.test(detail)),
          `${statement.sql}\n${plan.join('\n')}`,
        ).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });
});
