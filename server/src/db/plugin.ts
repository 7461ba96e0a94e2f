/**
 * Shares the database with every area as `app.db` (typed Kysely) and `app.dbDialect`, brings
 * the schema up to date before any route can run, and closes the connection with the app.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseHandle, DialectName } from './connect.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: DialectName;
  }
}

export const databasePlugin = fp<{ handle: DatabaseHandle }>(
  async (app, { handle }) => {
    app.decorate('db', handle.db);
    app.decorate('dbDialect', handle.dialect);
    app.addHook('onClose', async () => handle.close());
    const applied = await migrateToLatest(handle.db, handle.dialect);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  },
  { name: 'wanxiang-database' },
);
