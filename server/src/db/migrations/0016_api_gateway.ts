/**
 * The API-market gateway's own tables (domain/api-gateway):
 *
 * - `api_call_days`: the daily roll-up of metered calls per key, API and China day, written in
 *   the call's transaction (so the counters always equal the `api_calls` rows) and kept when the
 *   raw calls pass their retention.
 * - `api_rate_windows`: the fixed one-minute rate-limit counter per key and API, in the database
 *   so every server process shares it.
 * - `api_free_usage`: free calls used per user, API and China calendar month.
 */
import type { DialectMigration } from './migration.js';

export const migration0016ApiGateway: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('api_call_days')
      .addColumn('key_id', 'bigint', (c) => c.notNull())
      .addColumn('api_id', 'bigint', (c) => c.notNull())
      // Epoch ms of the China day's first instant (16:00 UTC the day before).
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('calls', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ok', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('rate_limited', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('no_quota', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('latency_sum', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('latency_max', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('api_call_days_pk', ['key_id', 'api_id', 'day_start'])
      .execute();
    // The API's chart reads all keys' rows of its days.
    await db.schema
      .createIndex('api_call_days_api_id_day_start_idx')
      .on('api_call_days')
      .columns(['api_id', 'day_start'])
      .execute();

    await db.schema
      .createTable('api_rate_windows')
      .addColumn('key_id', 'bigint', (c) => c.notNull())
      .addColumn('api_id', 'bigint', (c) => c.notNull())
      // Epoch ms of the window's first instant.
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('used', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_rate_windows_pk', ['key_id', 'api_id', 'window_start'])
      .execute();
    // Housekeeping deletes past windows by their start.
    await db.schema
      .createIndex('api_rate_windows_window_start_idx')
      .on('api_rate_windows')
      .column('window_start')
      .execute();

    await db.schema
      .createTable('api_free_usage')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('api_id', 'bigint', (c) => c.notNull())
      // `2025-01`: the China calendar month (core's quotaMonthOf).
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('used', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_free_usage_pk', ['user_id', 'api_id', 'month'])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('api_free_usage').ifExists().execute();
    await db.schema.dropTable('api_rate_windows').ifExists().execute();
    await db.schema.dropTable('api_call_days').ifExists().execute();
  },
};
