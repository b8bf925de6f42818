import Database from 'better-sqlite3';
import pg from 'pg';

/** The stored `period_used` of the inference key with this alias, read straight from the service's database. */
export async function readKeyUse(database: string, alias: string): Promise<number> {
  if (database.startsWith('sqlite:')) {
    const db = new Database(database.slice('sqlite:'.length), { readonly: true });
    try {
      const row = db.prepare('select period_used from api_key where alias = ?').get(alias) as { period_used: number };
      return Number(row.period_used);
    } finally {
      db.close();
    }
  }
  const url = new URL(database);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const result = await client.query('select period_used from api_key where alias = $1', [alias]);
    return Number(result.rows[0]?.period_used);
  } finally {
    await client.end();
  }
}
