/**
 * Scan-login tickets (server/src/domain/qr-login). A ticket is kept only as its SHA-256, like
 * session tokens; the row remembers who asked (address, browser) for the confirm screen, who
 * scanned, and whether the waiting side has collected its token.
 */
import { sql } from 'kysely';
import type { DialectMigration } from './migration.js';

export const migration0007QrLogin: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('qr_login_tickets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('client_ip', 'text', (c) => c.notNull())
      .addColumn('client_user_agent', 'text')
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('scanned_at', 'bigint')
      .addColumn('decided_at', 'bigint')
      .addColumn('consumed_at', 'bigint')
      .addCheckConstraint(
        'qr_login_tickets_status_check',
        sql`status in ('pending', 'scanned', 'confirmed', 'cancelled')`,
      )
      .execute();
    // The per-address limit counts recent tickets; housekeeping deletes by expiry.
    await db.schema
      .createIndex('qr_login_tickets_ip_idx')
      .on('qr_login_tickets')
      .columns(['client_ip', 'created_at'])
      .execute();
    await db.schema
      .createIndex('qr_login_tickets_expires_idx')
      .on('qr_login_tickets')
      .column('expires_at')
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('qr_login_tickets').ifExists().execute();
  },
};
