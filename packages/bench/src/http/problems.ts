import { HttpError } from '@atrium/core';

/** Bencher's 404, identical whether the resource is missing or hidden from the caller. */
export const notFound = (resource: string, id: string) =>
  new HttpError(
    404,
    'not_found',
    `${resource} (${id.slice(0, 300)}) not found\n${resource} may be private and require authentication or it may not exist.`,
  );

export const badRequest = (message: string, param?: string) => new HttpError(400, 'bad_request', message, param);

const UNIQUE = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);
const FOREIGN_KEY = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

/** Maps a unique or foreign-key violation to Bencher's 409; anything else is rethrown. */
export async function conflictOnConstraint<T>(work: Promise<T>, what: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code && UNIQUE.has(code)) throw new HttpError(409, 'conflict', `${what} already exists`);
    if (code && FOREIGN_KEY.has(code)) throw new HttpError(409, 'conflict', `${what} is still in use`);
    throw error;
  }
}
