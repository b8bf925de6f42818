import { randomUUID } from 'node:crypto';
import type { Page, PaginationQuery } from '../wire/pagination.js';
import { paged, searchAny } from './list-query.js';
import type { Db, User } from './types.js';

export async function createUser(
  db: Db,
  input: { name: string; slug: string; email: string; admin?: boolean },
  now = Date.now(),
): Promise<User> {
  const row: User = {
    uuid: randomUUID(),
    name: input.name,
    slug: input.slug,
    email: input.email,
    admin: input.admin ? 1 : 0,
    locked: 0,
    created: now,
    modified: now,
  };
  await db.insertInto('user').values(row).execute();
  return row;
}

export const findUserByEmail = (db: Db, email: string): Promise<User | undefined> =>
  db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst();

export const findUserByUuid = (db: Db, uuid: string): Promise<User | undefined> =>
  db.selectFrom('user').selectAll().where('uuid', '=', uuid).executeTakeFirst();

export const findUser = (db: Db, id: { column: 'uuid' | 'slug' | 'name'; value: string }): Promise<User | undefined> =>
  db
    .selectFrom('user')
    .selectAll()
    .where(id.column === 'uuid' ? 'uuid' : 'slug', '=', id.value)
    .executeTakeFirst();

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type UserListQuery = { name?: string; search?: string } & PaginationQuery;

export async function listUsers(db: Db, filter: UserListQuery, page: Page) {
  let query = db.selectFrom('user');
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) query = query.where(searchAny(['name', 'slug', 'uuid'], filter.search));
  return paged(query, (q) => q.selectAll().orderBy('name', page.direction ?? 'asc'), page);
}

export type UserChanges = Partial<{ name: string; slug: string; email: string; admin: number; locked: number }>;

export async function updateUser(db: Db, uuid: string, changes: UserChanges, now = Date.now()): Promise<void> {
  await db
    .updateTable('user')
    .set({ ...changes, modified: now })
    .where('uuid', '=', uuid)
    .execute();
}
