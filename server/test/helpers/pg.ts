/** One short-lived PostgreSQL connection for a test's own statements (create, drop, inspect). */
import pg from 'pg';

export async function withPg<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
