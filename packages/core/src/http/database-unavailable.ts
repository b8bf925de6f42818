import type { HttpProblem } from './problem.js';

/** Socket failures of a database connection (pg reports them with Node's error codes). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failed system call on a socket; the `syscall` sets them apart from a client that aborted its own
 * request (`aborted`, ECONNRESET without one). Connecting to every address of a host fails as a group.
 */
function isSocketFailure(error: Error): boolean {
  if (error instanceof AggregateError) return error.errors.some((e) => e instanceof Error && isSocketFailure(e));
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return typeof syscall === 'string' && typeof code === 'string' && SOCKET_CODES.has(code);
}

/** SQLSTATEs of a server that is restarting, shutting down, full, or dropped the connection (class 08). */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** pg's own errors for connections it lost or could not get; they carry no code. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

/** Whether `error` says the database cannot be reached right now (as opposed to a failing query). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (isSocketFailure(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    return SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || code.startsWith('SQLITE_BUSY');
  }
  return PG_MESSAGES.some((message) => error.message.startsWith(message));
}

export const databaseUnavailable: Readonly<HttpProblem> = Object.freeze({
  status: 503,
  code: 'database_unavailable',
  message: 'the database is unavailable; try again shortly',
  headers: Object.freeze({ 'retry-after': '5' }),
});
