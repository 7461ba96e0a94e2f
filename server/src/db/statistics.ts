/**
 * PostgreSQL's planner statistics after bulk writes this server makes itself (the demo content of a
 * first start, a restore). PostgreSQL plans from statistics that autovacuum refreshes once enough
 * rows changed — up to a minute later, and never where autovacuum is off (some CI and managed
 * images). Until then a table written in bulk looks nearly empty to the planner: the orders list
 * filtered by status sorted all 2 564 completed demo orders to show 20 (a bitmap scan and a sort,
 * 4.6 ms) instead of reading 20 entries of its index (0.1 ms). `pg_restore`'s documentation asks
 * for the same ANALYZE after a restore. SQLite plans without such statistics here: nothing to do.
 */
import { sql } from 'kysely';
import type { AnyDb } from '../resources/extensions.js';

/** Runs one SQL text and answers its rows: a Kysely database or a plain node-postgres client. */
export type RunSql = (text: string) => Promise<{ rows: unknown[] }>;

/** ANALYZE of every table of the connection's schema, in one statement. */
export async function analyzeCurrentSchema(run: RunSql): Promise<void> {
  const { rows } = await run(
    'select tablename as name from pg_tables where schemaname = current_schema() order by tablename',
  );
  const names = (rows as { name: string }[]).map((r) => `"${r.name.replaceAll('"', '""')}"`);
  if (names.length > 0) await run(`analyze ${names.join(', ')}`);
}

/** The same through the server's database (nothing on SQLite). */
export async function analyzeSchema(db: AnyDb, dialect: string): Promise<void> {
  if (dialect === 'postgres') await analyzeCurrentSchema((text) => sql.raw(text).execute(db));
}

/**
 * Autovacuum off: the statistics above are the last this server's tables get, and rows deleted
 * or updated are never reclaimed. Said once at start, to whoever runs the server.
 */
export async function autovacuumIsOff(db: AnyDb, dialect: string): Promise<boolean> {
  if (dialect !== 'postgres') return false;
  const { rows } = await sql<{ setting: string }>`
    select setting from pg_settings where name = 'autovacuum'`.execute(db);
  return rows[0]?.setting === 'off';
}
