/**
 * Which expiry thresholds were already notified for which certificate (domain/certificates):
 * one row per (certificate job, certificate fingerprint, threshold in days). The unique key is
 * what makes a notice once per certificate, even when two processes check the same job: the
 * second insert of the same threshold does nothing. A renewed certificate has a new fingerprint,
 * so its thresholds start afresh; the old certificate's rows stay as history until the job goes.
 */
import type { DialectMigration } from './migration.js';

export const migration0015SslNotices: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('ssl_notices')
      .addColumn('ssl_job_id', 'bigint', (c) => c.notNull())
      .addColumn('fingerprint256', 'text', (c) => c.notNull())
      .addColumn('threshold', 'integer', (c) => c.notNull())
      // Epoch ms, as every time the server stores.
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ssl_notices_pk', ['ssl_job_id', 'fingerprint256', 'threshold'])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('ssl_notices').ifExists().execute();
  },
};
