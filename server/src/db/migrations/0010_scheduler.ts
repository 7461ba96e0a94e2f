/**
 * The scheduler's leases (server/src/scheduler): one row per task name (or task and key, such as
 * `monitor.check:42`). Whoever changes a row with the one conditional statement of lease.ts may
 * run that task; `expires_at` says until when nobody else may — during a run the holder's
 * heartbeat, after it the start of the next period.
 */
import type { DialectMigration } from './migration.js';

export const migration0010Scheduler: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('scheduler_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      // The process that took the lease last: host, pid and a random part (scheduler/holder.ts).
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('acquired_at', 'bigint', (c) => c.notNull())
      // How many times the lease was taken: the number of the current run, and the fencing token
      // that renewals and the end of a run must still find (a holder that stalled and lost the
      // lease cannot extend or end someone else's run).
      .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
      // When the last run ended, and why it failed (null: it succeeded, or none has ended).
      .addColumn('last_run_at', 'bigint')
      .addColumn('last_error', 'text')
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('scheduler_leases').ifExists().execute();
  },
};
