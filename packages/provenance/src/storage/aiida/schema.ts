import type { ColumnType } from 'kysely';

/**
 * AiiDA 2.x tables as Kysely sees them on both backends. JSON columns are text on SQLite and JSONB on
 * PostgreSQL; datetimes are text (naive UTC) on SQLite and timestamptz on PostgreSQL. The row mappers
 * in `rows.ts` normalise both.
 */
type Json = ColumnType<unknown, string, string>;
type Time = ColumnType<string | Date, string | Date, string | Date>;

export interface DbNode {
  id: number;
  uuid: string;
  node_type: string;
  process_type: string | null;
  label: string;
  description: string;
  ctime: Time;
  mtime: Time;
  attributes: Json;
  extras: Json;
  repository_metadata: Json;
  dbcomputer_id: number | null;
  user_id: number;
}

export interface DbLink {
  id: number;
  input_id: number;
  output_id: number;
  label: string;
  type: string;
}

export interface DbComputer {
  id: number;
  uuid: string;
  label: string;
  hostname: string;
  description: string;
  scheduler_type: string;
  transport_type: string;
  metadata: Json;
}

export interface DbUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  institution: string;
}

export interface DbGroup {
  id: number;
  uuid: string;
  label: string;
  type_string: string;
  time: Time;
  description: string;
  extras: Json;
  user_id: number;
}

export interface DbGroupNodes {
  id: number;
  dbnode_id: number;
  dbgroup_id: number;
}

export interface DbComment {
  id: number;
  uuid: string;
  dbnode_id: number;
  ctime: Time;
  mtime: Time;
  user_id: number;
  content: string;
}

export interface DbLog {
  id: number;
  uuid: string;
  time: Time;
  loggername: string;
  levelname: string;
  dbnode_id: number;
  message: string;
  metadata: Json;
}

export interface AiidaDatabase {
  db_dbnode: DbNode;
  db_dblink: DbLink;
  db_dbcomputer: DbComputer;
  db_dbuser: DbUser;
  db_dbgroup: DbGroup;
  db_dbgroup_dbnodes: DbGroupNodes;
  db_dbcomment: DbComment;
  db_dblog: DbLog;
}

export type AiidaTable = keyof AiidaDatabase;
