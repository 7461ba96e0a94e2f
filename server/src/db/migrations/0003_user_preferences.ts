/**
 * Each user's screen preferences (column choices, page size, saved filters, open tabs), kept on
 * the server so they follow the user to another browser. One JSON value per (user, key).
 */
import { type DialectMigration, idColumn } from './migration.js';

export const migration0003UserPreferences: DialectMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('user_preferences')
      .addColumn('id', 'integer', idColumn(dialect))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('user_preferences_user_key', ['user_id', 'key'])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('user_preferences').ifExists().execute();
  },
};
