/**
 * PostgreSQL: statements are sent as named (prepared) ones (db/connect.ts) — inside transactions
 * only those that name their result columns. What a caller must still see: the same rows; a
 * column added by another process under a prepared `select *` (a rolling upgrade) answers the new
 * shape instead of failing, in a transaction too; transactions unchanged.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUrl } from '../../testing/pg-statement-counter.js';
import { type DatabaseHandle, openDatabase, spellOutStar } from '../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from './helpers/app.js';

const PG_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG_URL)('named statements on PostgreSQL', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  // biome-ignore lint/suspicious/noExplicitAny: a table of this test's own, outside the typed schema
  let db: any;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    if (database.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    handle = openDatabase({ ...database.database, poolSize: 2 });
    db = handle.db;
    await sql`create table probe (id integer primary key, name text not null)`.execute(db);
    await sql`insert into probe values (1, 'a'), (2, 'b')`.execute(db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  const all = () => db.selectFrom('probe').selectAll().orderBy('id').execute();
  /** DDL from another connection (another process: a rolling upgrade). */
  const alterElsewhere = async (statement: string) => {
    const other = new pg.Client({
      connectionString: database.database.dialect === 'postgres' ? database.database.url : '',
    });
    await other.connect();
    try {
      await other.query(statement);
    } finally {
      await other.end();
    }
  };

  it('prepares what it runs outside a transaction, once per connection, with the same answers', async () => {
    for (let i = 0; i < 5; i++)
      expect(await all()).toEqual([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ]);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      db,
    );
    expect(rows.map((r) => r.statement).filter((s) => s.includes('"probe"')).length).toBeGreaterThan(0);
  });

  it('answers the new shape after another connection adds a column under a prepared select *', async () => {
    // Every pooled connection has the statement prepared.
    await Promise.all([all(), all(), all(), all()]);
    await alterElsewhere(`alter table probe add column note text default 'n'`);
    for (let i = 0; i < 4; i++)
      expect(await all()).toEqual([
        { id: 1, name: 'a', note: 'n' },
        { id: 2, name: 'b', note: 'n' },
      ]);
  });

  it('inside a transaction prepares statements that name their columns, never a select *', async () => {
    const prepared = await db.transaction().execute(async (trx: typeof db) => {
      await trx.selectFrom('probe').select(['id', 'name']).where('id', '>', 0).execute();
      await trx.selectFrom('probe').selectAll().where('id', '>', 0).execute();
      await trx.updateTable('probe').set({ name: 'a' }).where('id', '=', 1).execute();
      // pg_prepared_statements is the connection's own: the transaction's.
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        trx,
      );
      return rows.map((r) => r.statement);
    });
    expect(prepared).toContain('select "id", "name" from "probe" where "id" > $1');
    expect(prepared).toContain('update "probe" set "name" = $1 where "id" = $2');
    expect(prepared).not.toContain('select * from "probe" where "id" > $1');
  });

  it('answers the new shape in a transaction after another connection adds a column', async () => {
    const inTransaction = () =>
      db
        .transaction()
        .execute((trx: typeof db) => trx.selectFrom('probe').selectAll().orderBy('id').execute());
    await Promise.all([inTransaction(), inTransaction()]);
    await alterElsewhere(`alter table probe add column extra integer default 7`);
    for (let i = 0; i < 3; i++)
      expect((await inTransaction())[0]).toEqual({ id: 1, name: 'a', note: 'n', extra: 7 });
  });

  it('sends every statement unnamed with DATABASE_PREPARED=off (prepared: false)', async () => {
    if (database.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    const plain = openDatabase({ ...database.database, poolSize: 1, prepared: false });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: this test's own table
      const rows = await (plain.db as any).selectFrom('probe').select('id').where('id', '<', 100).execute();
      expect(rows.length).toBeGreaterThan(0);
      const { rows: prepared } = await sql<{ n: number }>`
        select count(*)::int as n from pg_prepared_statements where statement like '%"id" < $1%'`.execute(
        plain.db,
      );
      expect(prepared[0]?.n).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it('keeps transactions as they were: writes commit, a failure rolls back', async () => {
    await db.transaction().execute(async (trx: typeof db) => {
      await trx.insertInto('probe').values({ id: 3, name: 'c' }).execute();
    });
    await expect(
      db.transaction().execute(async (trx: typeof db) => {
        await trx.insertInto('probe').values({ id: 4, name: 'd' }).execute();
        await trx.insertInto('probe').values({ id: 4, name: 'again' }).execute();
      }),
    ).rejects.toThrow();
    expect((await all()).map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    // Named or not, a failed statement in a transaction leaves nothing behind.
    await expect(
      db.transaction().execute(async (trx: typeof db) => {
        await trx.updateTable('probe').set({ name: 'x' }).where('id', '=', 1).execute();
        await trx.updateTable('probe').set({ name: null }).where('id', '=', 2).execute();
      }),
    ).rejects.toThrow();
    expect((await all()).map((r: { name: string }) => r.name)).toEqual(['a', 'b', 'c']);
  });

  it('spells out a transaction’s select * and returning * as the columns it learned, names them, and keeps answering when a column is added', async () => {
    await handle.learnColumns?.();
    const inTransaction = () =>
      db.transaction().execute(async (trx: typeof db) => {
        const rows = await trx.selectFrom('probe').selectAll().where('id', '<', 100).orderBy('id').execute();
        const updated = await trx
          .updateTable('probe')
          .set({ name: 'a' })
          .where('id', '=', 1)
          .returningAll()
          .executeTakeFirst();
        const { rows: prepared } = await sql<{ statement: string }>`
          select statement from pg_prepared_statements`.execute(trx);
        return { rows, updated, prepared: prepared.map((r) => r.statement) };
      });
    const before = await inTransaction();
    expect(before.rows[0]).toEqual({ id: 1, name: 'a', note: 'n', extra: 7 });
    expect(before.updated).toEqual({ id: 1, name: 'a', note: 'n', extra: 7 });
    expect(before.prepared).toContain(
      'select "id", "name", "note", "extra" from "probe" where "id" < $1 order by "id"',
    );
    expect(before.prepared).toContain(
      'update "probe" set "name" = $1 where "id" = $2 returning "id", "name", "note", "extra"',
    );
    // Both pooled connections have them prepared; another process adds a column (a rolling upgrade).
    await Promise.all([inTransaction(), inTransaction()]);
    await alterElsewhere(`alter table probe add column later text default 'l'`);
    // The transactions go on answering the columns this process knows, never "cached plan must
    // not change result type"; once it learns the table again it answers the new one too.
    for (let i = 0; i < 3; i++)
      expect((await inTransaction()).rows[0]).toEqual({ id: 1, name: 'a', note: 'n', extra: 7 });
    await handle.learnColumns?.();
    expect((await inTransaction()).rows[0]).toEqual({ id: 1, name: 'a', note: 'n', extra: 7, later: 'l' });
  });
});

describe.skipIf(!PG_URL)('a prepared statement run again on its connection (db/lean-query.ts)', () => {
  it('is described once: later runs answer the same rows without a Describe, failures and pipelining included', async () => {
    const database = await createTestDatabase('postgres', { empty: true });
    if (database.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    const { counter, url } = await countedUrl(database.database.url);
    const handle = openDatabase({ ...database.database, url, poolSize: 1 });
    // biome-ignore lint/suspicious/noExplicitAny: a table of this test's own, outside the typed schema
    const db: any = handle.db;
    try {
      await sql`create table lean (id integer primary key, name text not null, at timestamptz, doc jsonb, n bigint)`.execute(
        db,
      );
      const read = (id: number) =>
        db
          .selectFrom('lean')
          .select(['id', 'name', 'at', 'doc', 'n'])
          .where('id', '=', id)
          .executeTakeFirst();
      const rename = (id: number, name: string | null) =>
        db.updateTable('lean').set({ name }).where('id', '=', id).executeTakeFirst();
      const at = new Date('2026-11-28T08:00:00Z');
      for (let id = 1; id <= 3; id++)
        await db
          .insertInto('lean')
          .values({ id, name: `n${id}`, at, doc: JSON.stringify({ id, list: [id] }), n: 2 ** 40 + id })
          .execute();
      // The first run of each statement asks for its rows' description; the later ones do not.
      await read(1);
      await rename(1, 'n1');
      const before = counter.describes();
      // The first runs were described (the proxy sees Describes at all).
      expect(before).toBeGreaterThanOrEqual(2);
      for (let id = 1; id <= 3; id++)
        expect(await read(id)).toEqual({ id, name: `n${id}`, at, doc: { id, list: [id] }, n: 2 ** 40 + id });
      expect(await read(99)).toBeUndefined();
      expect(Number((await rename(2, 'm2')).numUpdatedRows)).toBe(1);
      expect(Number((await rename(99, 'x')).numUpdatedRows)).toBe(0);
      // A run that fails (name is not null) fails alone; the next runs answer as before.
      await expect(rename(3, null)).rejects.toThrow(/null/);
      expect(Number((await rename(3, 'm3')).numUpdatedRows)).toBe(1);
      // Several at once on the one connection (pipelined), a described and a bare run mixed.
      const together = await Promise.all([read(1), read(2), read(3), rename(1, 'm1'), read(1)]);
      expect(together.map((r: { name?: string } | undefined) => r && 'name' in r && r.name)).toEqual([
        'n1',
        'm2',
        'm3',
        false,
        'm1',
      ]);
      // The failed run is described again once; every other run went without.
      expect(counter.describes() - before).toBeLessThanOrEqual(1);
    } finally {
      await handle.close();
      await counter.close();
      await database.drop();
    }
  });
});

describe('spellOutStar', () => {
  const columns = new Map([
    ['orders', ['id', 'status']],
    ['goods', ['id', 'stock']],
  ]);
  it('writes out the * of a one-table select and of a write’s returning, and nothing else', () => {
    expect(spellOutStar('select * from "orders" where "id" = $1', columns)).toBe(
      'select "id", "status" from "orders" where "id" = $1',
    );
    expect(spellOutStar('select * from "goods" where "id" = $1 for update', columns)).toBe(
      'select "id", "stock" from "goods" where "id" = $1 for update',
    );
    expect(spellOutStar('select * from "orders"', columns)).toBe('select "id", "status" from "orders"');
    expect(spellOutStar('update "orders" set "status" = $1 where "id" = $2 returning *', columns)).toBe(
      'update "orders" set "status" = $1 where "id" = $2 returning "id", "status"',
    );
    expect(spellOutStar('insert into "goods" ("stock") values ($1) returning *', columns)).toBe(
      'insert into "goods" ("stock") values ($1) returning "id", "stock"',
    );
    expect(spellOutStar('delete from "orders" where "id" = $1 returning *', columns)).toBe(
      'delete from "orders" where "id" = $1 returning "id", "status"',
    );
    // After one read-only CTE (an order numbered from its sequence in the insert).
    expect(
      spellOutStar(
        'with "next_id" as (select nextval(pg_get_serial_sequence($1, \'id\')) as "id") insert into "orders" ("id", "status") values ((select id from next_id), $2) returning *',
        columns,
      ),
    ).toBe(
      'with "next_id" as (select nextval(pg_get_serial_sequence($1, \'id\')) as "id") insert into "orders" ("id", "status") values ((select id from next_id), $2) returning "id", "status"',
    );
    // A CTE that writes, or two CTEs: left as written.
    expect(
      spellOutStar(
        'with "moved" as (update "goods" set "stock" = $1 returning *) insert into "orders" ("status") values ($2) returning *',
        columns,
      ),
    ).toBeNull();
    expect(
      spellOutStar(
        'with "a" as (select 1), "b" as (select 2) insert into "orders" ("status") values ($1) returning *',
        columns,
      ),
    ).toBeNull();
    // A join, another table's columns in the answer, a table it does not know: left as written.
    expect(
      spellOutStar('select * from "orders" inner join "goods" on "goods"."id" = $1', columns),
    ).toBeNull();
    expect(spellOutStar('select * from "ordersx" where "id" = $1', columns)).toBeNull();
    expect(
      spellOutStar(
        'update "orders" set "status" = $1 from "goods" where "goods"."id" = $2 returning *',
        columns,
      ),
    ).toBeNull();
    expect(spellOutStar('select "orders".* from "orders"', columns)).toBeNull();
    expect(spellOutStar('select "id" from "orders" where "id" = $1', columns)).toBeNull();
  });
});
