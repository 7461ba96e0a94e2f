/**
 * Migrates one database per kind once per run, and each test database starts as a copy of it
 * (test/helpers/app.ts): a copied SQLite file, or a PostgreSQL database created from the migrated
 * one as its TEMPLATE. Migrating from nothing took ~0.4 s on SQLite and ~1 s on PostgreSQL for
 * each of the suite's app starts; copying takes a few milliseconds. The path from nothing is
 * still walked: here, once per run on each kind (a failing migration fails the run), and by the
 * tests that ask for an empty database (`createTestDatabase(kind, { empty: true })`).
 *
 * PostgreSQL test databases are named `wx_<run>_…`; the teardown drops the run's own (a run that
 * crashed leaves them for `drop database … with (force)` by hand).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { removeRunBundles } from './helpers/fixture-process.js';
import { withPg } from './helpers/pg.js';

export default async function setup(): Promise<() => Promise<void>> {
  const run = randomBytes(4).toString('hex');
  // Read by test/helpers/app.ts in the workers, which inherit the environment.
  process.env.WANXIANG_TEST_RUN = run;

  const dir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-template-'));
  const file = path.join(dir, 'wanxiang.db');
  const sqlite = openDatabase({ dialect: 'sqlite', file });
  await migrateToLatest(sqlite.db, 'sqlite');
  // Closing the last connection checkpoints the WAL into the file: the file alone is the copy.
  await sqlite.close();
  process.env.WANXIANG_TEST_SQLITE_TEMPLATE = file;

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `wx_${run}_template`;
    await withPg(url, (c) => c.query(`create database ${template}`));
    const target = new URL(url);
    target.pathname = `/${template}`;
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    const handle = openDatabase({ dialect: 'postgres', url: target.toString(), poolSize: 1 });
    try {
      await migrateToLatest(handle.db, 'postgres');
    } finally {
      await handle.close();
    }
    process.env.WANXIANG_TEST_PG_TEMPLATE = template;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    removeRunBundles();
    if (!url) return;
    await withPg(url, async (client) => {
      const { rows } = await client.query<{ name: string }>(
        'select datname as name from pg_database where datname like $1',
        [`wx\\_${run}\\_%`],
      );
      for (const { name } of rows) await client.query(`drop database if exists ${name} with (force)`);
    });
  };
}
