import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely, Selectable } from 'kysely';
import type { AccountTable, InferenceDatabase } from './schema.js';

export type Account = Omit<Selectable<AccountTable>, 'password_hash'>;

const PUBLIC_COLUMNS = ['id', 'email', 'name', 'oidc_subject', 'is_admin', 'created'] as const;

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export interface NewAccount {
  email: string;
  name: string;
  password?: string;
  oidcSubject?: string;
  isAdmin?: boolean;
}

/** Creates an account; the password is stored only as an argon2id hash. */
export async function createAccount(db: Kysely<InferenceDatabase>, input: NewAccount, now = Date.now()) {
  const account = {
    id: randomUUID(),
    email: normaliseEmail(input.email),
    name: input.name,
    oidc_subject: input.oidcSubject ?? null,
    is_admin: input.isAdmin ? 1 : 0,
    created: now,
  };
  const password_hash = input.password === undefined ? null : await hash(input.password);
  await db
    .insertInto('account')
    .values({ ...account, password_hash })
    .execute();
  return account satisfies Account;
}

export const findAccount = (db: Kysely<InferenceDatabase>, id: string): Promise<Account | undefined> =>
  db.selectFrom('account').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();

export const findAccountByEmail = (db: Kysely<InferenceDatabase>, email: string): Promise<Account | undefined> =>
  db.selectFrom('account').select(PUBLIC_COLUMNS).where('email', '=', normaliseEmail(email)).executeTakeFirst();

let decoyHash: Promise<string> | undefined;

/** The account whose email and password match; undefined otherwise (also for accounts without a password). */
export async function checkPassword(
  db: Kysely<InferenceDatabase>,
  email: string,
  password: string,
): Promise<Account | undefined> {
  const row = await db
    .selectFrom('account')
    .select([...PUBLIC_COLUMNS, 'password_hash'])
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  if (!row?.password_hash) {
    // As slow as a wrong password, so the answer's timing does not tell which accounts exist.
    decoyHash ??= hash(randomUUID());
    await verify(await decoyHash, password);
    return undefined;
  }
  if (!(await verify(row.password_hash, password))) return undefined;
  const { password_hash: _, ...account } = row;
  return account;
}

/**
 * The account of an OpenID Connect identity: the one linked to it, else the one with its email (linked now),
 * else a new account without a password.
 */
export async function accountForOidc(
  db: Kysely<InferenceDatabase>,
  identity: { subject: string; email: string; name: string | undefined },
  now = Date.now(),
): Promise<Account> {
  const linked = await db
    .selectFrom('account')
    .select(PUBLIC_COLUMNS)
    .where('oidc_subject', '=', identity.subject)
    .executeTakeFirst();
  if (linked) return linked;
  const byEmail = await findAccountByEmail(db, identity.email);
  if (byEmail) {
    await db.updateTable('account').set({ oidc_subject: identity.subject }).where('id', '=', byEmail.id).execute();
    return { ...byEmail, oidc_subject: identity.subject };
  }
  return createAccount(
    db,
    { email: identity.email, name: identity.name ?? identity.email, oidcSubject: identity.subject },
    now,
  );
}

/** Whether any operator account exists (the start banner says how to create the first one). */
export const hasOperator = async (db: Kysely<InferenceDatabase>): Promise<boolean> =>
  (await db.selectFrom('account').select('id').where('is_admin', '=', 1).limit(1).executeTakeFirst()) !== undefined;
