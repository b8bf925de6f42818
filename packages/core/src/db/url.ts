export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; connectionString: string; schema: string | undefined; prepare: boolean };

/**
 * `sqlite:<path>` (or `sqlite::memory:`) and `postgres://…`. A `schema` query parameter on a
 * PostgreSQL URL selects the schema the service's tables live in (several services, one database);
 * `prepare=false` sends every statement unnamed, for poolers that cannot keep prepared statements
 * (PgBouncer in transaction mode before 1.21).
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new Error(`database url ${url}: missing file path after sqlite:`);
    return { dialect: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema') ?? undefined;
    const prepare = parsed.searchParams.get('prepare');
    parsed.searchParams.delete('schema');
    parsed.searchParams.delete('prepare');
    if (prepare !== null && prepare !== 'true' && prepare !== 'false') {
      throw new Error(`database url: prepare must be true or false, got ${JSON.stringify(prepare)}`);
    }
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new Error(`database url: schema must be a lower-case SQL identifier, got ${JSON.stringify(schema)}`);
    }
    return { dialect: 'postgres', connectionString: parsed.toString(), schema, prepare: prepare !== 'false' };
  }
  throw new Error('database url must start with sqlite: or postgres://');
}
