/**
 * Users, roles, sessions, captchas, sign-in attempts and platform configuration: what the
 * walking skeleton needs to sign people in and out.
 */
import { sql } from 'kysely';
import { type DialectMigration, idColumn } from './migration.js';

export const migration0001Auth: DialectMigration = {
  async up(db, dialect) {
    const id = idColumn(dialect);

    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', id)
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('nickname', 'text')
      .addColumn('avatar', 'text')
      .addColumn('phone', 'text')
      .addColumn('email', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .addCheckConstraint('users_status_check', sql`status in ('active', 'disabled')`)
      .execute();

    await db.schema
      .createTable('roles')
      .addColumn('id', 'integer', id)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();

    await db.schema
      .createTable('user_roles')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
      .execute();
    await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'integer', id)
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('revoked_reason', 'text')
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addCheckConstraint(
        'sessions_revoked_reason_check',
        sql`revoked_reason is null or revoked_reason in ('signout', 'revoked', 'disabled')`,
      )
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('captchas')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('captchas_expires_idx').on('captchas').column('expires_at').execute();

    // The sign-in limits count recent failures per username and per address: both lookups
    // are a range scan on (key, at).
    await db.schema
      .createTable('login_attempts')
      .addColumn('id', 'integer', id)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('success', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('login_attempts_username_idx')
      .on('login_attempts')
      .columns(['username', 'at'])
      .execute();
    await db.schema.createIndex('login_attempts_ip_idx').on('login_attempts').columns(['ip', 'at']).execute();
    await db.schema.createIndex('login_attempts_at_idx').on('login_attempts').column('at').execute();

    await db.schema
      .createTable('platform_config')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db) {
    for (const table of [
      'platform_config',
      'login_attempts',
      'captchas',
      'sessions',
      'user_roles',
      'roles',
      'users',
    ]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
