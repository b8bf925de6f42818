import type { Db } from './types.js';

/**
 * Records that a confirmation token (by its hash) was exchanged; false if it already was. Rows are kept until the
 * token expires (then it is refused for that reason), and swept on the way.
 */
export async function useTokenOnce(db: Db, tokenHash: string, expires: number, now: number): Promise<boolean> {
  await db.deleteFrom('used_auth_token').where('expires', '<', now).execute();
  const result = await db
    .insertInto('used_auth_token')
    .values({ token_hash: tokenHash, expires })
    .onConflict((conflict) => conflict.column('token_hash').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
