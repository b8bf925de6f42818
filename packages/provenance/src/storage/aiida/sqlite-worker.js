// @ts-check
// One read-only connection to an archive database in its own process: the pool kills this process when
// a statement outlives its deadline (better-sqlite3 cannot be interrupted, not even by terminating a
// worker thread: the statement runs on to its end). Plain JavaScript so that Node can start it from the
// sources (tests) and from the build alike. Usage: node sqlite-worker.js <database path> [pragma …]
import SqliteDatabase from 'better-sqlite3';

const [path = '', ...pragmas] = process.argv.slice(2);
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

const send = /** @type {(message: unknown) => void} */ (process.send?.bind(process));
process.on('disconnect', () => process.exit(0));
process.on('message', (/** @type {{ sql: string; parameters: unknown[] }} */ { sql, parameters }) => {
  try {
    const statement = prepare(sql);
    if (statement.reader) send({ rows: statement.all(parameters) });
    else send({ rows: [], changes: statement.run(parameters).changes });
  } catch (error) {
    const { name, message, code } = /** @type {Error & { code?: string }} */ (error);
    send({ error: { name, message, code } });
  }
});
send({ ready: true });
