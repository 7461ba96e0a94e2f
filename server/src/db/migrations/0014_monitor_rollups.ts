/**
 * Monitor jobs' hourly and daily roll-ups of their heartbeats (domain/monitor-jobs/rollups.ts):
 * counts of up and down checks and a latency summary with a histogram (core's `Rollup`), so
 * 30-day uptime is a read of 30 rows by primary key instead of a scan of 43 200 heartbeats.
 * Written in each check's transaction; kept when raw heartbeats pass their retention.
 */
import type { DialectMigration } from './migration.js';

export const migration0014MonitorRollups: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('monitor_rollups')
      .addColumn('job_id', 'bigint', (c) => c.notNull())
      // 'hour' or 'day' (a China day: 16:00 UTC to 16:00 UTC).
      .addColumn('period', 'text', (c) => c.notNull())
      // Epoch ms of the period's first instant.
      .addColumn('start_at', 'bigint', (c) => c.notNull())
      .addColumn('up', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('down', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('latency_sum', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('latency_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('latency_min', 'double precision')
      .addColumn('latency_max', 'double precision')
      // JSON array of counts per core's LATENCY_BUCKETS_MS bucket.
      .addColumn('buckets', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_rollups_pk', ['job_id', 'period', 'start_at'])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('monitor_rollups').ifExists().execute();
  },
};
