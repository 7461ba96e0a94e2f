/**
 * Shares the database with every area as `app.db` (typed Kysely) and `app.dbDialect`, brings
 * the schema up to date before any route can run, and closes the connection with the app. On
 * SQLite it also opens `app.dbReader`, the read connection of the reads every request makes
 * (the session lookup, the lists: sqlite-reader.ts).
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AuthWrites, DatabaseHandle, DialectName } from './connect.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { SqliteReader } from './sqlite-reader.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: DialectName;
    /** SQLite's read connection (null on PostgreSQL, where every read goes through `db`). */
    dbReader: SqliteReader | null;
    /** PostgreSQL: this process's committed writes to the sign-in tables (connect.ts). */
    dbAuthWrites: AuthWrites | null;
    /** After a migration under the running server (a restore): the tables' columns read again (connect.ts). */
    dbLearnColumns(): Promise<void>;
  }
}

/**
 * How much of the SQLite file the read connection maps (a mapping of address space, not memory).
 *
 * Memory-mapped: a deep page walks ~100 000 index entries, and reading their pages straight
 * from the OS's cache (no copy into SQLite's cache, where the lists push each other out) is
 * faster — 1 000 000 orders, page 5 000 of a filtered list: 2.9 ms mapped, 3.5 ms with a 16 MB
 * page cache; the first page 0.61 ms against 0.79 ms. Mapped pages are the OS's file cache,
 * shared and reclaimable, but the pages touched count in the process's RSS (~30 MB after the
 * bench's deep pages).
 */
const READ_MMAP_BYTES = 1 << 30;

export const databasePlugin = fp<{ handle: DatabaseHandle }>(
  async (app, { handle }) => {
    app.decorate('db', handle.db);
    app.decorate('dbDialect', handle.dialect);
    app.decorate('dbAuthWrites', handle.authWrites ?? null);
    app.decorate('dbLearnColumns', async () => handle.learnColumns?.());
    app.addHook('onClose', async () => handle.close());
    const applied = await migrateToLatest(handle.db, handle.dialect);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
    await app.dbLearnColumns();
    // After migrating: the file exists and the statements see the tables.
    const database = app.config.database;
    const reader =
      database.dialect === 'sqlite' ? new SqliteReader(database.file, { mmapBytes: READ_MMAP_BYTES }) : null;
    app.decorate('dbReader', reader);
    app.addHook('onClose', async () => reader?.close());
  },
  { name: 'wanxiang-database' },
);
