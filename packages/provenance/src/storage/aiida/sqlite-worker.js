// @ts-check
// One read-only connection to an archive database, off the main thread: the pool terminates this thread
// when a statement outlives its deadline (better-sqlite3 cannot be interrupted from its own thread).
// Plain JavaScript so that Node can start it from the sources (tests) and from the build alike.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/** @type {{ path: string; pragmas: string[] }} */
const { path, pragmas } = workerData;
const sqlite = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
for (const pragma of pragmas) sqlite.pragma(pragma);

const STATEMENT_CACHE_SIZE = 512;
/** @type {Map<string, import('better-sqlite3').Statement>} */
const statements = new Map();

/** Statements reused by SQL text, least recently used dropped (preparing costs as much as a point query). */
function prepare(/** @type {string} */ sql) {
  let statement = statements.get(sql);
  if (statement) {
    statements.delete(sql);
  } else {
    statement = sqlite.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE)
      statements.delete(/** @type {string} */ (statements.keys().next().value));
  }
  statements.set(sql, statement);
  return statement;
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
port.postMessage({ ready: true });
port.on('message', (/** @type {{ sql: string; parameters: unknown[] }} */ { sql, parameters }) => {
  try {
    const statement = prepare(sql);
    if (statement.reader) {
      port.postMessage({ rows: statement.all(parameters) });
    } else {
      port.postMessage({ rows: [], changes: statement.run(parameters).changes });
    }
  } catch (error) {
    const { name, message, code } = /** @type {Error & { code?: string }} */ (error);
    port.postMessage({ error: { name, message, code } });
  }
});
