/**
 * What several server processes on one database share (issue 18, server/SCALE-OUT.md):
 *
 * - `blobs`: uploaded files' bytes when BLOB_STORE=database (files/database-blobs.ts), keyed by
 *   the same content-hash id as the folder store, so the same bytes are stored once.
 * - `rate_windows`: fixed-window counters of rate limits that have no rows of their own to count
 *   (the public chat-bot replies: domain/rate-window.ts), one row per scope, subject and window.
 * - `hub_messages`: `/ws` publishes too large for a NOTIFY payload (ws/pg-fanout.ts), read by
 *   each process's listener and pruned after a minute. PostgreSQL only in use; created on both so
 *   the schema is one.
 */
import type { DialectMigration } from './migration.js';
import { idColumn } from './migration.js';

export const migration0021ScaleOut: DialectMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('blobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('rate_windows')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      // Epoch ms of the window's first instant.
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('used', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_windows_pk', ['scope', 'subject', 'window_start'])
      .execute();
    // Pruning deletes a scope's past windows by their start.
    await db.schema
      .createIndex('rate_windows_scope_window_start_idx')
      .on('rate_windows')
      .columns(['scope', 'window_start'])
      .execute();

    await db.schema
      .createTable('hub_messages')
      .addColumn('id', 'integer', idColumn(dialect))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('hub_messages').ifExists().execute();
    await db.schema.dropTable('rate_windows').ifExists().execute();
    await db.schema.dropTable('blobs').ifExists().execute();
  },
};
