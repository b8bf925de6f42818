import type { Db } from './types.js';

/**
 * Records the one use of a single-use token (confirmation link, OAuth state) under the key of its identity (see
 * `session-tokens.ts`); false if it was already used. Rows are kept until the token expires (then it is refused for
 * that reason), and swept on the way. The column keeps its first name, `token_hash`.
 */
export async function useTokenOnce(db: Db, key: string, expires: number, now: number): Promise<boolean> {
  await db.deleteFrom('used_auth_token').where('expires', '<', now).execute();
  const result = await db
    .insertInto('used_auth_token')
    .values({ token_hash: key, expires })
    .onConflict((conflict) => conflict.column('token_hash').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
