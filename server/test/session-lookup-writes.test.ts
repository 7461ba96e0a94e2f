/**
 * Which of this process's writes drop the kept session lookups on PostgreSQL (db/connect.ts
 * `changesSessionLookup`): the SQL as Kysely writes it for the server's own statements — a
 * balance or points move keeps them, a change to what a lookup reads drops them, and anything
 * not recognised drops them too.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { changesSessionLookup, LOOKUP_COLUMNS, openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTestDatabase } from './helpers/app.js';

// Compiles without a database: the texts the server would send.
// biome-ignore lint/suspicious/noExplicitAny: the statements below name tables outside a typed schema
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const stamp = sql`case when updated_at >= ${1} then updated_at + 1 else ${1} end`;

describe('a write to the sign-in tables drops the kept lookups only when it may change one', () => {
  it('keeps them for a balance or points move and the last sign-in time', () => {
    for (const column of ['balance_fen', 'points']) {
      const move = db
        .updateTable('users')
        .set({ [column]: sql`${sql.ref(column)} + ${5}`, updated_at: stamp })
        .where('id', '=', 1)
        .where(sql<boolean>`${sql.ref(column)} + ${5} >= 0`)
        .returning([column])
        .compile().sql;
      expect(changesSessionLookup(move), move).toBe(false);
    }
    const signIn = db.updateTable('users').set({ last_login_at: 1 }).where('id', '=', 1).compile().sql;
    expect(changesSessionLookup(signIn), signIn).toBe(false);
  });

  it('drops them for a change to a column a lookup reads, alone or beside others', () => {
    const statements = [
      db.updateTable('users').set({ status: 'disabled', updated_at: stamp }).where('id', '=', 1),
      db.updateTable('users').set({ points: sql`points + 1`, nickname: '新昵称' }).where('id', '=', 1),
      db.updateTable('users').set({ deleted_at: 1 }).where('id', '=', 1),
      db.updateTable('roles').set({ name: 'auditor' }).where('id', '=', 2),
    ];
    for (const statement of statements) {
      const text = statement.compile().sql;
      expect(changesSessionLookup(text), text).toBe(true);
    }
  });

  it('drops them for anything it does not recognise', () => {
    const texts = [
      'update users set status = $1 where id = $2',
      'update "users" set "points" = (select max(points) from users where id = $1) where "id" = $2',
      'update "users" set "points" = 0',
      db.deleteFrom('users').where('id', '=', 1).compile().sql,
      db.insertInto('user_roles').values({ user_id: 1, role_id: 2 }).compile().sql,
      db.updateTable('sessions').set({ revoked_at: 1 }).where('id', '=', 1).compile().sql,
    ];
    for (const text of texts) expect(changesSessionLookup(text), text).toBe(true);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the columns it watches on PostgreSQL', () => {
  it('are the columns whose update fires the database’s notification (migration 0022)', async () => {
    const database = await createTestDatabase('postgres', { empty: true });
    const handle = openDatabase(database.database);
    try {
      await migrateToLatest(handle.db, 'postgres');
      for (const table of ['users', 'roles']) {
        const { rows } = await sql<{ def: string }>`
          select pg_get_triggerdef(t.oid) as def from pg_trigger t
          where t.tgname = ${`${table}_auth_changed`} and t.tgrelid = ${table}::regclass`.execute(handle.db);
        const columns = /UPDATE OF ([\w, ]+?) OR/.exec(rows[0]?.def ?? '')?.[1]?.split(/,\s*/);
        expect(new Set(columns), table).toEqual(LOOKUP_COLUMNS[table]);
      }
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
