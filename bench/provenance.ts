// AiiDA REST v4 over a generated archive of N nodes (default 1,000,000): p50/p99 and req/s at 8 connections per
// endpoint, the first (uncached) answer, beside the raw SQL time of the same data on the extracted SQLite copy,
// plus server RSS. `npm run bench -- provenance [--nodes N] [--duration S] [--postgres]` (--postgres also loads the
// archive into PostgreSQL, schema bench_provenance_g<version>_<N>, with the indexes `atrium provenance inspect`
// recommends, and measures the API on it). The archive, its cache copy and the schema are kept (under the temp
// directory, keyed by the generator's version) and reused by later runs. The browser's node pages are measured on
// the archive too (bench/lib/provenance-browse.ts; goals: server time p99 < 50 ms, first paint < 500 ms);
// --browse-only skips the API endpoints.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '@atrium/core';
import {
  type AiidaDatabase,
  copyAiidaRows,
  createAiidaTables,
  createServingIndexes,
  makeArchive,
  openArchive,
  SYNTHETIC_GRAPH_VERSION,
} from '@atrium/provenance';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { load, median } from './lib/load.js';
import { measureNodePages } from './lib/provenance-browse.js';
import type { BenchReport } from './lib/report.js';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const DATA = join(tmpdir(), 'atrium-bench-provenance', `g${SYNTHETIC_GRAPH_VERSION}`);
const PG_URL = process.env.ATRIUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Server {
  base: string;
  child: ChildProcess;
  stop(): void;
}

async function startServer(location: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'packages/cli/bin/atrium.mjs'),
      'provenance',
      'serve',
      location,
      '--port',
      '0',
      '--data-dir',
      DATA,
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const base = await new Promise<string>((resolveBase, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /AiiDA REST API v4 at (http:\/\/[^/]+)\/api\/v4\//.exec(text);
      if (match?.[1]) resolveBase(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  child.stdout?.resume();
  return { base, child, stop: () => child.kill('SIGTERM') };
}

function rssMb(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

const QB_BODY = JSON.stringify({
  path: [{ entity_type: 'data.core.dict.Dict.', orm_base: 'node', tag: 'd' }],
  filters: { d: { 'attributes.SYSTEM.ecutwfc': { '>': 45 } } },
  project: { d: ['id', 'uuid', 'label', 'ctime', 'attributes.SYSTEM.ecutwfc'] },
  order_by: [{ d: [{ id: { order: 'desc' } }] }],
  limit: 100,
  offset: 0,
  distinct: false,
});

interface Case {
  name: string;
  path: string;
  post?: string;
  /** The minimal SQL returning the same data, for SQLite and PostgreSQL. */
  sql: { sqlite: string[]; postgres: string[] };
}

function cases(workflowUuid: string, since: string): Case[] {
  const cols = 'id, label, node_type, process_type, ctime, mtime, uuid, user_id';
  const tree = (dir: 'input' | 'output', other: 'input' | 'output') =>
    `select n.id, n.uuid, n.node_type, n.label, n.ctime, n.mtime, n.attributes, l.label, l.type from db_dblink l join db_dbnode n on n.id = l.${dir}_id where l.${other}_id = (select id from db_dbnode where uuid = '${workflowUuid}') order by n.id limit 10`;
  return [
    {
      name: 'nodes page 20 -ctime',
      path: '/api/v4/nodes/page/1?perpage=20&orderby=-ctime',
      sql: {
        sqlite: ['select count(*) from db_dbnode', `select ${cols} from db_dbnode order by ctime desc, id limit 20`],
        postgres: ['select count(*) from db_dbnode', `select ${cols} from db_dbnode order by ctime desc, id limit 20`],
      },
    },
    {
      name: 'filtered list (like + ctime>)',
      path: `/api/v4/nodes?node_type=like="data%25"&ctime>${since}`,
      sql: {
        sqlite: [
          `select count(*) from db_dbnode where node_type like 'data%' and ctime > '${since.replace('T', ' ')}'`,
          `select ${cols} from db_dbnode where node_type like 'data%' and ctime > '${since.replace('T', ' ')}' order by id limit 400`,
        ],
        postgres: [
          `select count(*) from db_dbnode where node_type like 'data%' and ctime > '${since}Z'`,
          `select ${cols} from db_dbnode where node_type like 'data%' and ctime > '${since}Z' order by id limit 400`,
        ],
      },
    },
    {
      name: 'selective filtered list (calcjob, last month)',
      path: '/api/v4/nodes?node_type=like="process.calculation.calcjob%25"&ctime>2025-12-01T00:00',
      sql: {
        sqlite: [
          "select count(*) from db_dbnode where node_type like 'process.calculation.calcjob%' and ctime > '2025-12-01 00:00'",
          `select ${cols} from db_dbnode where node_type like 'process.calculation.calcjob%' and ctime > '2025-12-01 00:00' order by id limit 400`,
        ],
        postgres: [
          "select count(*) from db_dbnode where node_type like 'process.calculation.calcjob%' and ctime > '2025-12-01T00:00Z'",
          `select ${cols} from db_dbnode where node_type like 'process.calculation.calcjob%' and ctime > '2025-12-01T00:00Z' order by id limit 400`,
        ],
      },
    },
    {
      // Labels of the synthetic archive are empty but for the code's: without a text index this reads every node.
      name: 'substring label filter (like %relax%)',
      path: '/api/v4/nodes?label=like="%25relax%25"',
      sql: {
        sqlite: [
          "select count(*) from db_dbnode where label like '%relax%'",
          `select ${cols} from db_dbnode where label like '%relax%' order by id limit 400`,
        ],
        postgres: [
          "select count(*) from db_dbnode where label like '%relax%'",
          `select ${cols} from db_dbnode where label like '%relax%' order by id limit 400`,
        ],
      },
    },
    {
      name: 'full_types_count',
      path: '/api/v4/nodes/full_types_count/',
      sql: {
        sqlite: ["select node_type, coalesce(process_type, ''), count(*) from db_dbnode group by 1, 2"],
        postgres: ["select node_type, coalesce(process_type, ''), count(*) from db_dbnode group by 1, 2"],
      },
    },
    {
      name: 'statistics',
      path: '/api/v4/nodes/statistics/',
      sql: {
        sqlite: [
          'select node_type, count(*) from db_dbnode group by 1',
          'select substr(ctime, 1, 10), count(*) from db_dbnode group by 1',
        ],
        postgres: [
          'select node_type, count(*) from db_dbnode group by 1',
          "select to_char(ctime at time zone 'UTC', 'YYYY-MM-DD'), count(*) from db_dbnode group by 1",
        ],
      },
    },
    {
      name: 'links/tree of a workflow (10/10)',
      path: `/api/v4/nodes/${workflowUuid}/links/tree/?in_limit=10&out_limit=10`,
      sql: {
        sqlite: [tree('input', 'output'), tree('output', 'input')],
        postgres: [tree('input', 'output'), tree('output', 'input')],
      },
    },
    {
      name: 'querybuilder POST attribute filter',
      path: '/api/v4/querybuilder/',
      post: QB_BODY,
      sql: {
        sqlite: [
          "select id, uuid, label, ctime, attributes -> '$.SYSTEM.ecutwfc' from db_dbnode where node_type like 'data.core.dict.%' and json_extract(attributes, '$.SYSTEM.ecutwfc') > 45 order by id desc limit 100",
        ],
        postgres: [
          "select id, uuid, label, ctime, attributes #> '{SYSTEM,ecutwfc}' from db_dbnode where node_type like 'data.core.dict.%' and jsonb_typeof(attributes #> '{SYSTEM,ecutwfc}') = 'number' and (attributes #>> '{SYSTEM,ecutwfc}')::float > 45 order by id desc limit 100",
        ],
      },
    },
    {
      name: 'single node',
      path: `/api/v4/nodes/${workflowUuid}/`,
      sql: {
        sqlite: [`select ${cols} from db_dbnode where uuid = '${workflowUuid}'`],
        postgres: [`select ${cols} from db_dbnode where uuid = '${workflowUuid}'`],
      },
    },
  ];
}

async function timeSqlite(path: string, statements: string[], runs = 9): Promise<number> {
  const db = new SqliteDatabase(path, { readonly: true });
  try {
    const prepared = statements.map((s) => db.prepare(s));
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      for (const p of prepared) p.all();
      times.push(performance.now() - start);
    }
    return median(times);
  } finally {
    db.close();
  }
}

async function timePostgres(schema: string, statements: string[], runs = 9): Promise<number> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      for (const s of statements) await client.query(s);
      times.push(performance.now() - start);
    }
    return median(times);
  } finally {
    await client.end();
  }
}

async function ensurePostgres(archivePath: string, nodes: number): Promise<string> {
  const schema = `bench_provenance_g${SYNTHETIC_GRAPH_VERSION}_${nodes}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  let loaded: boolean;
  try {
    const exists = await admin.query(
      'select 1 from information_schema.tables where table_schema = $1 and table_name = $2',
      [schema, 'db_dblog'],
    );
    loaded = Boolean(exists.rowCount);
    if (!loaded) {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.query(`create schema ${schema}`);
    }
  } finally {
    await admin.end();
  }
  const target = openDatabase<AiidaDatabase>(`${PG_URL}?schema=${schema}`, { poolSize: 1 });
  try {
    if (!loaded) {
      await createAiidaTables(target.db, 'postgres');
      const archive = await openArchive(archivePath, join(DATA, 'provenance-cache'));
      try {
        await copyAiidaRows(archive.store, target.db);
      } finally {
        await archive.store.close();
      }
    }
    // Idempotent: a reused schema gets the indexes added since it was loaded.
    await createServingIndexes(target.db);
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
  } finally {
    await target.close();
  }
  return schema;
}

async function measure(server: Server, list: Case[], seconds: number, raw: (c: Case) => Promise<number>) {
  const rows = [];
  for (const c of list) {
    const url = `${server.base}${c.path}`;
    const options = c.post
      ? { method: 'POST' as const, body: c.post, headers: { 'content-type': 'application/json' } }
      : {};
    const started = performance.now();
    const first = await fetch(url, c.post ? { method: 'POST', body: c.post } : {});
    if (first.status !== 200) throw new Error(`${c.name}: HTTP ${first.status} ${await first.text()}`);
    await first.arrayBuffer();
    const firstMs = performance.now() - started;
    const result = await load(url, { connections: 8, durationSeconds: seconds, ...options });
    const sqlMs = await raw(c);
    rows.push({
      endpoint: c.name,
      'req/s': Math.round(result.requestsPerSecond),
      'p50 ms': result.p50Ms,
      'p99 ms': result.p99Ms,
      'first ms': Math.round(firstMs * 10) / 10,
      'raw SQL ms': Math.round(sqlMs * 100) / 100,
      errors: result.errors + result.non2xx,
    });
  }
  return rows;
}

export default async function provenance(args: string[]): Promise<BenchReport> {
  const { values } = parseArgs({
    args,
    options: {
      nodes: { type: 'string' },
      duration: { type: 'string' },
      postgres: { type: 'boolean' },
      'browse-only': { type: 'boolean' },
    },
  });
  const nodes = Number(values.nodes ?? 1_000_000);
  const seconds = Number(values.duration ?? 5);
  mkdirSync(DATA, { recursive: true });
  const archivePath = join(DATA, `synthetic-${nodes}.aiida`);
  let started = performance.now();
  if (!existsSync(archivePath)) await makeArchive(archivePath, { nodes });
  const generateSeconds = (performance.now() - started) / 1000;

  started = performance.now();
  const server = await startServer(archivePath);
  const startSeconds = (performance.now() - started) / 1000;
  const notes: string[] = [];
  const rows: Record<string, string | number>[] = [];
  try {
    const find = await fetch(
      `${server.base}/api/v4/nodes?process_type="aiida.workflows:quantumespresso.pw.relax"&limit=1&offset=${Math.floor(nodes / 40)}`,
    );
    const workflow = ((await find.json()) as { data: { nodes: { uuid: string }[] } }).data.nodes[0]?.uuid ?? '';
    const since = '2025-06-01T00:00';
    const list = cases(workflow, since);
    const cacheDir = join(DATA, 'provenance-cache');
    const dbPath = join(
      cacheDir,
      readdirSync(cacheDir).find((d) => existsSync(join(cacheDir, d, 'db.sqlite3'))) ?? '',
      'db.sqlite3',
    );
    const apiCases = values['browse-only'] ? [] : list;
    for (const row of await measure(server, apiCases, seconds, (c) => timeSqlite(dbPath, c.sql.sqlite))) {
      rows.push({ backend: 'sqlite archive', ...row });
    }
    const browse = await measureNodePages(server.base, server.child.pid ?? 0, nodes);
    for (const row of browse.rows) {
      rows.push({
        backend: 'sqlite archive',
        endpoint: `browser ${row.page} (${row.nodes} distinct, one by one, ${row['KB p50']} KB, ${row['CPU ms/page']} ms CPU each)`,
        'p50 ms': row['answer p50 ms'],
        'p99 ms': row['answer p99 ms'],
        'server p50 ms': row['server p50 ms'],
        'server p99 ms': row['server p99 ms'],
      });
    }
    rows.push({
      backend: 'sqlite archive',
      endpoint: 'browser CalcJob node page, 8 connections',
      'req/s': browse.throughput['req/s'],
      'p50 ms': browse.throughput.p50,
      'p99 ms': browse.throughput.p99,
      errors: browse.throughput.errors,
    });
    notes.push(
      `browser node pages: server time (Server-Timing) p50 ${browse.overall.p50} ms, p99 ${browse.overall.p99} ms over all ${browse.rows.reduce((n, r) => n + r.nodes, 0)} pages (goal p99 < 50 ms); first contentful paint in Chromium, navigation start to paint, of ${browse.firstPaint.loads} CalcJob pages opened one after another in one tab: p50 ${browse.firstPaint.p50} ms, p99 ${browse.firstPaint.p99} ms, max ${browse.firstPaint.max} ms (goal < 500 ms; the tab's very first load, which starts the renderer: ${browse.firstPaint.coldStart} ms); load average at the end ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} on ${availableParallelism()} cores`,
    );
    const memory = rssMb(server.child.pid);
    notes.push(
      `archive: ${nodes} nodes; generated in ${generateSeconds.toFixed(1)} s (0 = reused); server ready in ${startSeconds.toFixed(1)} s (first start extracts and indexes the database)`,
    );
    notes.push(`server RSS after the run: ${memory.rss} MB (peak ${memory.peak} MB); goal < 300 MB`);
    if (values.postgres) {
      started = performance.now();
      const schema = await ensurePostgres(archivePath, nodes);
      notes.push(`PostgreSQL schema ${schema} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const pgServer = await startServer(`${PG_URL}?schema=${schema}`);
      try {
        for (const row of await measure(pgServer, list, seconds, (c) => timePostgres(schema, c.sql.postgres))) {
          rows.push({ backend: 'postgres', ...row });
        }
        const pgMemory = rssMb(pgServer.child.pid);
        notes.push(`PostgreSQL server RSS: ${pgMemory.rss} MB (peak ${pgMemory.peak} MB)`);
      } finally {
        pgServer.stop();
      }
    }
  } finally {
    server.stop();
  }
  notes.push(
    'raw SQL = the minimal statements returning the same data (counts included, the naive plan), median of 9 in-process runs; first = the first request of the endpoint on a fresh server (nothing memoised yet); the API memoises totals, aggregates and the ids of list pages (forever on archives, 10 s on PostgreSQL), so repeated list requests can beat the raw SQL.',
  );
  return {
    title: `AiiDA REST v4 on a ${nodes}-node generated archive, 8 connections x ${seconds}s per endpoint`,
    columns: [
      'backend',
      'endpoint',
      'req/s',
      'p50 ms',
      'p99 ms',
      'first ms',
      'raw SQL ms',
      'server p50 ms',
      'server p99 ms',
      'errors',
    ],
    rows,
    notes,
  };
}
