import SqliteDatabase from 'better-sqlite3';
import { Kysely, type Selectable, SqliteDialect } from 'kysely';
import { createAiidaTables } from '../storage/aiida/ddl.js';
import type { AiidaDatabase, DbComputer, DbUser } from '../storage/aiida/schema.js';

type Json = Record<string, unknown>;

export interface NodeRow {
  id: number;
  uuid: string;
  node_type: string;
  process_type: string | null;
  label: string;
  description: string;
  ctime: string;
  mtime: string;
  attributes: Json;
  extras: Json;
  repository_metadata: Json;
  dbcomputer_id: number | null;
  user_id: number;
}

/**
 * Bulk writer of an AiiDA-schema SQLite file (prepared statements, one transaction, no journal):
 * what archive generators and converters fill before the file is zipped or served.
 */
export class AiidaSqliteWriter {
  private readonly sqlite: SqliteDatabase.Database;
  private statements!: ReturnType<AiidaSqliteWriter['prepare']>;

  private constructor(path: string) {
    this.sqlite = new SqliteDatabase(path);
    this.sqlite.pragma('journal_mode = OFF');
    this.sqlite.pragma('synchronous = OFF');
  }

  static async create(path: string): Promise<AiidaSqliteWriter> {
    const writer = new AiidaSqliteWriter(path);
    const db = new Kysely<AiidaDatabase>({ dialect: new SqliteDialect({ database: writer.sqlite }) });
    await createAiidaTables(db, 'sqlite');
    writer.statements = writer.prepare();
    return writer;
  }

  private prepare() {
    const s = this.sqlite;
    return {
      user: s.prepare('insert into db_dbuser (id, email, first_name, last_name, institution) values (?, ?, ?, ?, ?)'),
      computer: s.prepare(
        'insert into db_dbcomputer (id, uuid, label, hostname, description, scheduler_type, transport_type, metadata) values (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      group: s.prepare(
        'insert into db_dbgroup (id, uuid, label, type_string, time, description, extras, user_id) values (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      node: s.prepare(
        'insert into db_dbnode (id, uuid, node_type, process_type, label, description, ctime, mtime, attributes, extras, repository_metadata, dbcomputer_id, user_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      link: s.prepare('insert into db_dblink (input_id, output_id, label, type) values (?, ?, ?, ?)'),
      member: s.prepare('insert or ignore into db_dbgroup_dbnodes (dbgroup_id, dbnode_id) values (?, ?)'),
      log: s.prepare(
        'insert into db_dblog (uuid, time, loggername, levelname, dbnode_id, message, metadata) values (?, ?, ?, ?, ?, ?, ?)',
      ),
      comment: s.prepare(
        'insert into db_dbcomment (uuid, dbnode_id, ctime, mtime, user_id, content) values (?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  /** Runs `fill` in one transaction. */
  transaction<T>(fill: () => T): T {
    return this.sqlite.transaction(fill)();
  }

  user(u: DbUser): void {
    this.statements.user.run(u.id, u.email, u.first_name, u.last_name, u.institution);
  }

  computer(c: Selectable<DbComputer>): void {
    this.statements.computer.run(
      c.id,
      c.uuid,
      c.label,
      c.hostname,
      c.description,
      c.scheduler_type,
      c.transport_type,
      JSON.stringify(c.metadata),
    );
  }

  group(g: {
    id: number;
    uuid: string;
    label: string;
    type_string: string;
    time: string;
    description: string;
    extras: Json;
    user_id: number;
  }): void {
    this.statements.group.run(
      g.id,
      g.uuid,
      g.label,
      g.type_string,
      g.time,
      g.description,
      JSON.stringify(g.extras),
      g.user_id,
    );
  }

  node(n: NodeRow): void {
    this.statements.node.run(
      n.id,
      n.uuid,
      n.node_type,
      n.process_type,
      n.label,
      n.description,
      n.ctime,
      n.mtime,
      JSON.stringify(n.attributes),
      JSON.stringify(n.extras),
      JSON.stringify(n.repository_metadata),
      n.dbcomputer_id,
      n.user_id,
    );
  }

  link(inputId: number, outputId: number, label: string, type: string): void {
    this.statements.link.run(inputId, outputId, label, type);
  }

  member(groupId: number, nodeId: number): void {
    this.statements.member.run(groupId, nodeId);
  }

  log(l: {
    uuid: string;
    time: string;
    loggername: string;
    levelname: string;
    dbnode_id: number;
    message: string;
    metadata: Json;
  }): void {
    this.statements.log.run(
      l.uuid,
      l.time,
      l.loggername,
      l.levelname,
      l.dbnode_id,
      l.message,
      JSON.stringify(l.metadata),
    );
  }

  comment(c: {
    uuid: string;
    dbnode_id: number;
    ctime: string;
    mtime: string;
    user_id: number;
    content: string;
  }): void {
    this.statements.comment.run(c.uuid, c.dbnode_id, c.ctime, c.mtime, c.user_id, c.content);
  }

  close(): void {
    this.sqlite.close();
  }
}
