/**
 * Statements sent together (db/connect.ts `sendTogether`, db/together.ts): independent reads in
 * one round trip, a transaction's BEGIN with its first statement, a write nobody reads back with
 * the transaction's next statement. What a caller must see: the same answers as one by one, a
 * failure where it belongs (a held write that failed fails the COMMIT and nothing is kept; a
 * rollback reports the failure that led to it), and — on PostgreSQL — fewer round trips, counted
 * by a proxy in front of the database (testing/pg-statement-counter.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUrl, type StatementCounter } from '../../../testing/pg-statement-counter.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { readTogether, writeWithNext } from '../../src/db/together.js';
import { createTestDatabase, DB_KINDS, type DbKind, type TestDatabase } from '../helpers/app.js';

// PostgreSQL also with pipelining off (`DATABASE_PIPELINE=off`): the same answers and failures,
// each statement after the one before.
type Case = { kind: DbKind; pipeline: boolean; name: string };
const CASES = DB_KINDS.flatMap((kind): Case[] =>
  kind === 'postgres'
    ? [
        { kind, pipeline: true, name: 'postgres' },
        { kind, pipeline: false, name: 'postgres, pipelining off' },
      ]
    : [{ kind, pipeline: false, name: kind }],
);

describe.each(CASES)('statements sent together on $name', ({ kind, pipeline }) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let counter: StatementCounter | null = null;
  // biome-ignore lint/suspicious/noExplicitAny: tables of this test's own, outside the typed schema
  let db: any;

  beforeAll(async () => {
    database = await createTestDatabase(kind, { empty: true });
    let config = database.database;
    if (config.dialect === 'postgres') {
      const counted = await countedUrl(config.url);
      counter = counted.counter;
      config = { ...config, url: counted.url, poolSize: 2, pipeline };
    }
    handle = openDatabase(config);
    db = handle.db;
    await sql`create table box (id integer primary key, name text not null unique)`.execute(db);
    await sql`create table note (id integer primary key, box_id integer not null references box(id))`.execute(
      db,
    );
    await sql`insert into box values (1, 'a'), (2, 'b'), (3, 'c')`.execute(db);
  });
  afterAll(async () => {
    await handle?.close();
    await counter?.close();
    await database?.drop();
  });

  /** Round trips `work` took (PostgreSQL pipelined; null otherwise: none to save). */
  const tripsOf = async <T>(work: () => Promise<T>): Promise<{ value: T; trips: number | null }> => {
    const before = counter?.roundTrips() ?? 0;
    const value = await work();
    return { value, trips: counter && pipeline ? counter.roundTrips() - before : null };
  };
  const names = async () =>
    (await db.selectFrom('box').select('name').orderBy('id').execute()).map((r: { name: string }) => r.name);
  const reads = (q: typeof db) =>
    [
      q.selectFrom('box').select(['id', 'name']).where('id', '=', 2),
      null,
      q.selectFrom('box').select('name').where('id', '>', 1).orderBy('id'),
      q.selectFrom('box').select(sql<number>`count(*)`.as('n')),
    ] as const;

  it('answers independent reads as one by one would, a null with no rows', async () => {
    const one = await Promise.all(reads(db).map((q) => (q ? q.execute() : [])));
    const { value, trips } = await tripsOf(() => readTogether(db, reads(db)));
    expect(value).toEqual(one);
    expect(value).toEqual([[{ id: 2, name: 'b' }], [], [{ name: 'b' }, { name: 'c' }], [{ n: 3 }]]);
    if (trips !== null) expect(trips).toBe(1);
  });

  it('sends a transaction’s BEGIN with its first statement and its reads together', async () => {
    const { value, trips } = await tripsOf(() =>
      db.transaction().execute(async (trx: typeof db) => {
        const together = await readTogether(trx, reads(trx));
        await trx.updateTable('box').set({ name: 'b2' }).where('id', '=', 2).execute();
        return together;
      }),
    );
    expect((value as unknown[][])[0]).toEqual([{ id: 2, name: 'b' }]);
    expect(await names()).toEqual(['a', 'b2', 'c']);
    // BEGIN and the three reads; the update; the COMMIT.
    if (trips !== null) expect(trips).toBe(3);
    await db.updateTable('box').set({ name: 'b' }).where('id', '=', 2).execute();
  });

  it('sends a write nobody reads back with the next statement, which sees it', async () => {
    const { value, trips } = await tripsOf(() =>
      db.transaction().execute(async (trx: typeof db) => {
        await writeWithNext(trx, trx.insertInto('box').values({ id: 4, name: 'd' }));
        await writeWithNext(trx, trx.insertInto('note').values({ id: 1, box_id: 4 }));
        return (await trx.selectFrom('note').select('box_id').execute()).map(
          (r: { box_id: number }) => r.box_id,
        );
      }),
    );
    expect(value).toEqual([4]);
    expect(await names()).toEqual(['a', 'b', 'c', 'd']);
    // BEGIN, both inserts and the read; the COMMIT.
    if (trips !== null) expect(trips).toBe(2);
  });

  it('fails the commit of a transaction whose held write failed, and keeps nothing of it', async () => {
    const before = await names();
    const attempt = db.transaction().execute(async (trx: typeof db) => {
      await trx.updateTable('box').set({ name: 'a2' }).where('id', '=', 1).execute();
      // A name already taken: the unique constraint refuses it when it is sent, with the COMMIT.
      await writeWithNext(trx, trx.insertInto('box').values({ id: 5, name: 'b' }));
      return 'answered';
    });
    await expect(attempt).rejects.toThrow(/unique|UNIQUE/);
    expect(await names()).toEqual(before);
    // The connection is as good as before.
    expect(
      await db.transaction().execute((trx: typeof db) => trx.selectFrom('box').select('id').execute()),
    ).toHaveLength(before.length);
  });

  it('reports the failure that led to a rollback, not a held write’s, and keeps no held write', async () => {
    const attempt = db.transaction().execute(async (trx: typeof db) => {
      await writeWithNext(trx, trx.insertInto('note').values({ id: 2, box_id: 1 }));
      // On PostgreSQL also one that will fail when sent, with the ROLLBACK (SQLite writes at once).
      if (kind === 'postgres') await writeWithNext(trx, trx.insertInto('note').values({ id: 3, box_id: 99 }));
      throw new Error('the caller changed its mind');
    });
    await expect(attempt).rejects.toThrow('the caller changed its mind');
    expect(await db.selectFrom('note').select('id').execute()).toEqual([{ id: 1 }]);
  });

  it('rejects with the read that failed among reads sent together, and goes on', async () => {
    const before = await names();
    await expect(
      readTogether(db, [db.selectFrom('box').select('id'), db.selectFrom('no_such_table').select('id')]),
    ).rejects.toThrow(/no_such_table/);
    expect(await names()).toEqual(before);
  });

  it('writes at once outside a transaction', async () => {
    await writeWithNext(db, db.insertInto('box').values({ id: 6, name: 'f' }));
    // Another connection sees it before this one sends anything else.
    const other = openDatabase(database.database);
    try {
      expect(
        await other.db
          .selectFrom('box' as never)
          .select('name' as never)
          .where('id' as never, '=', 6 as never)
          .execute(),
      ).toEqual([{ name: 'f' }]);
    } finally {
      await other.close();
    }
  });
});
