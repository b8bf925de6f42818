import pg from 'pg';

export interface PreparedStatementLimits {
  /** Statements kept prepared per connection; beyond that, the least recently used one is deallocated. */
  perConnection: number;
  /**
   * A statement is prepared again after this long. A generic plan is replanned when its tables are
   * analysed, not as they grow: one made while a table was nearly empty (a new project, a new schema before
   * autovacuum's first pass) would otherwise keep scanning that table long after it has grown.
   */
  maxAgeMs: number;
}

export const PREPARED_STATEMENT_LIMITS: PreparedStatementLimits = { perConnection: 256, maxAgeMs: 30_000 };

/**
 * Errors after which a statement is prepared again under a new name: the server no longer has it
 * (`DISCARD ALL`, a pooler handing out another backend), already has the name, or its cached plan no
 * longer fits (another process changed a table that a `select *` reads).
 */
const RETIRE_CODES = new Set(['26000', '42P05', '0A000']);

type Callback = (error: Error | null, result?: unknown) => void;
type QueryConfig = { text: string; values?: unknown[]; name?: string; submit?: unknown; [key: string]: unknown };
type Named = QueryConfig & { name: string };

/**
 * A pg client that runs every statement with parameters as a named prepared statement, so PostgreSQL parses
 * and plans it once per connection instead of on every call (planning the bench alert list's ten-table join
 * takes 3 ms, running it 0.03 ms). After five runs PostgreSQL keeps a generic plan when it costs no more than
 * the custom ones. Statements without parameters (transaction control, migrations) are sent as before.
 * Limits come from the pool's `preparedStatements` option, which pg hands to every client it creates.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, { name: string; since: number }>();
  readonly #limits: PreparedStatementLimits;
  #counter = 0;
  /** The transaction status of the last ReadyForQuery: `I` idle, `T` in a transaction, `E` failed one. */
  #status = 'I';

  constructor(config?: pg.ClientConfig & { preparedStatements?: Partial<PreparedStatementLimits> }) {
    super(config);
    this.#limits = { ...PREPARED_STATEMENT_LIMITS, ...config?.preparedStatements };
    this.#connection().on('readyForQuery', (message: { status: string }) => {
      this.#status = message.status;
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this one forwards them all.
  override query(config: any, values?: any, callback?: any): any {
    const query = this.#parameterised(config, values);
    if (!query) return super.query(config, values, callback);
    const answer = this.#run(query, this.#status === 'I');
    const done: Callback | undefined = typeof values === 'function' ? values : callback;
    if (!done) return answer;
    answer.then(
      (result) => done(null, result),
      (error: Error) => done(error),
    );
    return undefined;
  }

  /** Outside a transaction, a statement the server lost or outgrew is prepared again and run once more. */
  async #run(query: QueryConfig, retry: boolean): Promise<unknown> {
    const named = this.#named(query);
    try {
      return await super.query(named);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RETIRE_CODES.has(code)) throw error;
      if (this.#names.get(query.text)?.name === named.name) this.#names.delete(query.text);
      if (!retry) throw error;
      return this.#run(query, false);
    }
  }

  #parameterised(config: unknown, values: unknown): QueryConfig | undefined {
    if (typeof config === 'string') {
      return Array.isArray(values) && values.length > 0 ? { text: config, values } : undefined;
    }
    const query = config as QueryConfig | null;
    if (!query || typeof query.text !== 'string' || query.name !== undefined || query.submit !== undefined) {
      return undefined;
    }
    const own = Array.isArray(values) ? values : query.values;
    return own && own.length > 0 ? { ...query, values: own } : undefined;
  }

  #named(query: QueryConfig): Named {
    const now = performance.now();
    let entry = this.#names.get(query.text);
    if (entry !== undefined) {
      this.#names.delete(query.text);
      // Deallocating is kept out of transactions, where a failure would abort the transaction.
      if (now - entry.since > this.#limits.maxAgeMs && this.#status === 'I') {
        this.#deallocate(entry.name);
        entry = undefined;
      }
    }
    if (entry === undefined) {
      entry = { name: `atrium_${++this.#counter}`, since: now };
      if (this.#names.size >= this.#limits.perConnection && this.#status === 'I') {
        const [text, oldest] = this.#names.entries().next().value as [string, { name: string }];
        this.#names.delete(text);
        this.#deallocate(oldest.name);
      }
    }
    this.#names.set(query.text, entry);
    return { ...query, name: entry.name };
  }

  #deallocate(name: string): void {
    const parsed = this.#connection().parsedStatements;
    if (parsed[name] === undefined) return;
    delete parsed[name];
    super.query(`deallocate ${name}`).catch(() => undefined);
  }

  #connection() {
    return (this as unknown as { connection: NodeJS.EventEmitter & { parsedStatements: Record<string, unknown> } })
      .connection;
  }
}
