/**
 * PostgreSQL: every commit that changes what a session lookup answers (domain/auth/sessions.ts —
 * a session revoked or deleted, a user disabled, deleted or renamed, a role given, taken or
 * renamed) notifies the server processes, so each can keep lookups in memory and drop them as
 * soon as another process (or anything else writing to the database) changes them
 * (domain/auth/pg-session-memo.ts). The notification goes on the `/ws` fan-out's channel
 * (ws/pg-fanout.ts: `wanxiang_hub_` and the first 16 hex digits of the SHA-256 of the schema's
 * name) as an ordinary message of the topic `system:auth` from the origin `db`, so the listener
 * every process already has hears it. A trigger rather than the server's code, so that no write
 * path — nor a script or psql — can forget it. Statement-level: one notification per statement,
 * and PostgreSQL folds a transaction's identical ones into one. New sessions need none (a token
 * without a session is never kept). SQLite has its own exact key (`data_version`): nothing there.
 */
import { sql } from 'kysely';
import type { DialectMigration } from './migration.js';

const TRIGGERS: { table: string; events: string }[] = [
  { table: 'sessions', events: 'update or delete or truncate' },
  {
    table: 'users',
    events: 'update of status, deleted_at, username, nickname, avatar or delete or truncate',
  },
  { table: 'user_roles', events: 'insert or update or delete or truncate' },
  { table: 'roles', events: 'update of name or delete or truncate' },
];

export const migration0022AuthNotify: DialectMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await sql
      .raw(`create or replace function wanxiang_auth_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify(
    'wanxiang_hub_' || left(encode(sha256(convert_to(current_schema(), 'UTF8')), 'hex'), 16),
    '{"o":"db","s":0,"t":"system:auth"}'
  );
  return null;
end
$$`)
      .execute(db);
    for (const { table, events } of TRIGGERS)
      await sql
        .raw(
          `create trigger ${table}_auth_changed after ${events} on ${table} for each statement execute function wanxiang_auth_changed()`,
        )
        .execute(db);
  },

  async down(db, dialect) {
    if (dialect !== 'postgres') return;
    for (const { table } of TRIGGERS)
      await sql.raw(`drop trigger if exists ${table}_auth_changed on ${table}`).execute(db);
    await sql.raw('drop function if exists wanxiang_auth_changed()').execute(db);
  },
};
