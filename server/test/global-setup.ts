/**
 * PostgreSQL test schemas are dropped when the whole run ends, not when their file does: Kysely's
 * migrator introspects the tables of every schema in the database, and a schema dropped by one
 * file while another file migrates made that migration fail (`schema "t_…" does not exist`) once
 * files ran side by side. Each run names its schemas `t_<run>_…`, so the teardown drops only its
 * own (and a run that crashed leaves its schemas for `drop schema … cascade` by hand).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  // Read by test/helpers/app.ts in the workers, which inherit the environment.
  process.env.WANXIANG_TEST_RUN = run;
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select nspname as name from pg_namespace where nspname like $1',
        [`t\\_${run}\\_%`],
      );
      for (const { name } of rows) await client.query(`drop schema if exists ${name} cascade`);
    } finally {
      await client.end();
    }
  };
}
