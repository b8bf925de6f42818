import { dialectOf } from '@atrium/core';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/** An auto-assigned integer primary key: SQLite's INTEGER PRIMARY KEY is a rowid already, PostgreSQL needs an identity. */
export const serialPrimaryKey = (db: Kysely<unknown>) => (c: ColumnDefinitionBuilder) =>
  dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey();
