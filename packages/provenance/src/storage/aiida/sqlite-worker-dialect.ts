import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { SqliteWorkerPool } from './sqlite-pool.js';

const READ_ONLY = 'archive databases are read-only: no transactions';

/** Every statement goes to the pool; statements of concurrent requests run side by side on its threads. */
class PoolConnection implements DatabaseConnection {
  constructor(private readonly pool: SqliteWorkerPool) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, changes } = await this.pool.run(query.sql, query.parameters);
    return changes === undefined ? { rows: rows as R[] } : { rows: [], numAffectedRows: BigInt(changes) };
  }

  // biome-ignore lint/correctness/useYield: refuses before yielding anything
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('archive queries are not streamed');
  }
}

class PoolDriver implements Driver {
  private readonly connection: PoolConnection;

  constructor(private readonly pool: SqliteWorkerPool) {
    this.connection = new PoolConnection(pool);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async releaseConnection(): Promise<void> {}
  async beginTransaction(): Promise<void> {
    throw new Error(READ_ONLY);
  }
  async commitTransaction(): Promise<void> {
    throw new Error(READ_ONLY);
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(READ_ONLY);
  }
  async destroy(): Promise<void> {
    this.pool.close();
  }
}

/** Kysely's SQLite dialect over a SqliteWorkerPool instead of a connection on the main thread. */
export function sqliteWorkerDialect(pool: SqliteWorkerPool): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new PoolDriver(pool),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
