import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createAiidaTables } from '../storage/aiida/ddl.js';
import type { AiidaDatabase } from '../storage/aiida/schema.js';
import {
  type GraphSink,
  SYNTHETIC_COMPUTERS,
  SYNTHETIC_GROUPS,
  SYNTHETIC_USERS,
  SyntheticGraph,
  type SyntheticNode,
} from './synthetic-graph.js';
import { ZipWriter } from './zip-writer.js';

export interface MadeArchive {
  path: string;
  nodes: number;
  links: number;
  objects: number;
}

const NOW = '2026-01-01 00:00:00.000000';

function fixedRows(sqlite: SqliteDatabase.Database): void {
  const user = sqlite.prepare(
    'insert into db_dbuser (id, email, first_name, last_name, institution) values (?, ?, ?, ?, ?)',
  );
  for (const u of SYNTHETIC_USERS) user.run(u.id, u.email, u.first_name, u.last_name, 'Atrium');
  const computer = sqlite.prepare(
    'insert into db_dbcomputer (id, uuid, label, hostname, description, scheduler_type, transport_type, metadata) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const c of SYNTHETIC_COMPUTERS) {
    computer.run(
      c.id,
      randomUUID(),
      c.label,
      c.hostname,
      '',
      c.scheduler_type,
      c.transport_type,
      JSON.stringify({ workdir: '/scratch/{username}/aiida_run/' }),
    );
  }
  const group = sqlite.prepare(
    'insert into db_dbgroup (id, uuid, label, type_string, time, description, extras, user_id) values (?, ?, ?, ?, ?, ?, ?, 1)',
  );
  for (const g of SYNTHETIC_GROUPS) group.run(g.id, randomUUID(), g.label, g.type_string, NOW, '', '{}');
}

/** Writes the graph straight into an AiiDA-schema SQLite file with prepared statements. */
function sqliteSink(sqlite: SqliteDatabase.Database, objects: Map<string, Buffer>): GraphSink & { links: number } {
  const node = sqlite.prepare(
    "insert into db_dbnode (id, uuid, node_type, process_type, label, description, ctime, mtime, attributes, extras, repository_metadata, dbcomputer_id, user_id) values (?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?)",
  );
  const link = sqlite.prepare('insert into db_dblink (input_id, output_id, label, type) values (?, ?, ?, ?)');
  const log = sqlite.prepare(
    "insert into db_dblog (uuid, time, loggername, levelname, dbnode_id, message, metadata) values (?, ?, 'aiida.orm.nodes.process.workflow.workchain.WorkChainNode', 'REPORT', ?, ?, '{}')",
  );
  const comment = sqlite.prepare(
    'insert into db_dbcomment (uuid, dbnode_id, ctime, mtime, user_id, content) values (?, ?, ?, ?, 1, ?)',
  );
  const member = sqlite.prepare('insert into db_dbgroup_dbnodes (dbgroup_id, dbnode_id) values (?, ?)');
  const sink = {
    links: 0,
    node(n: SyntheticNode) {
      const files = Object.entries(n.repository);
      const repository = files.length ? { o: Object.fromEntries(files.map(([name, k]) => [name, { k }])) } : {};
      node.run(
        n.id,
        n.uuid,
        n.node_type,
        n.process_type,
        n.label,
        n.ctime,
        n.ctime,
        JSON.stringify(n.attributes),
        JSON.stringify(n.extras),
        JSON.stringify(repository),
        n.dbcomputer_id,
        n.user_id,
      );
    },
    link(input: number, output: number, label: string, type: string) {
      sink.links++;
      link.run(input, output, label, type);
    },
    log: (nodeId: number, time: string, message: string) => log.run(randomUUID(), time, nodeId, message),
    comment: (nodeId: number, time: string, content: string) => comment.run(randomUUID(), nodeId, time, time, content),
    member: (groupId: number, nodeId: number) => member.run(groupId, nodeId),
    object: (key: string, content: Buffer) => objects.set(key, content),
  };
  return sink;
}

/** `atrium provenance make-archive`: a synthetic graph of about `nodes` nodes as a main_0001 `.aiida` archive. */
export async function makeArchive(path: string, nodes: number, seed = 42): Promise<MadeArchive> {
  const scratch = mkdtempSync(join(tmpdir(), 'atrium-make-archive-'));
  try {
    const dbPath = join(scratch, 'db.sqlite3');
    const sqlite = new SqliteDatabase(dbPath);
    sqlite.pragma('journal_mode = OFF');
    sqlite.pragma('synchronous = OFF');
    const db = new Kysely<AiidaDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
    await createAiidaTables(db, 'sqlite');
    const objects = new Map<string, Buffer>();
    const sink = sqliteSink(sqlite, objects);
    const written = sqlite.transaction(() => {
      fixedRows(sqlite);
      return new SyntheticGraph(sink, nodes, seed).generate();
    })();
    await db.destroy();
    const zip = new ZipWriter(createWriteStream(path));
    const metadata = { export_version: 'main_0001', aiida_version: '2.7.1', key_format: 'sha256', compression: 0 };
    await zip.addBuffer('metadata.json', Buffer.from(JSON.stringify(metadata)));
    await zip.addFile('db.sqlite3', dbPath);
    for (const [key, content] of objects) await zip.addBuffer(`repo/${key}`, content);
    await zip.finish();
    return { path, nodes: written, links: sink.links, objects: objects.size };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
