/**
 * Statements outside a transaction, from every caller, sent together once per turn of the event
 * loop on one pool connection (db/shared-connection.ts). What a caller must see: its own answer or
 * its own failure, as if it had been alone; a transaction on a connection of its own (its writes
 * unseen by the others until it commits); a connection the database dropped replaced, not reused;
 * no wait for a connection a transaction holds — and, counted by a proxy in front of PostgreSQL
 * (testing/pg-statement-counter.ts), one round trip for a turn's statements where there were one
 * each. Without pipelining (`DATABASE_PIPELINE=off`) nothing is shared.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUrl, type StatementCounter } from '../../../testing/pg-statement-counter.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { readTogether } from '../../src/db/together.js';
import { createTestDatabase, DB_KINDS, type TestDatabase } from '../helpers/app.js';

describe.skipIf(!DB_KINDS.includes('postgres'))('statements outside a transaction on PostgreSQL', () => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];
  let counter: StatementCounter;
  let url: string;

  /** A handle through the counting proxy, its pool of `poolSize`. */
  const open = (poolSize: number, pipeline = true) => {
    const handle = openDatabase({ dialect: 'postgres', url, poolSize, pipeline });
    handles.push(handle);
    // biome-ignore lint/suspicious/noExplicitAny: this test's own table, outside the typed schema
    return handle.db as any;
  };
  let db: ReturnType<typeof open>;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { empty: true });
    if (database.database.dialect !== 'postgres') throw new Error('a PostgreSQL database was asked for');
    const counted = await countedUrl(database.database.url);
    counter = counted.counter;
    url = counted.url;
    db = open(4);
    await sql`create table box (id integer primary key, name text not null)`.execute(db);
    await sql`insert into box values (1, 'a'), (2, 'b'), (3, 'c')`.execute(db);
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await counter?.close();
    await database?.drop();
  });

  const trips = async <T>(work: () => Promise<T>): Promise<{ value: T; trips: number }> => {
    const before = counter.roundTrips();
    const value = await work();
    return { value, trips: counter.roundTrips() - before };
  };
  /**
   * Ends the backend running `text` once the statement has reached the database — waited for by
   * asking the database, not by a timer — and answers its process id.
   */
  const terminateWhileRunning = async (text: string): Promise<number> => {
    for (;;) {
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity where query = ${text} and state = 'active'`.execute(db);
      const pid = rows[0]?.pid;
      if (pid === undefined) continue;
      await sql`select pg_terminate_backend(${pid})`.execute(db);
      return pid;
    }
  };
  const nameOf = (q: typeof db, id: number) =>
    q.selectFrom('box').select('name').where('id', '=', id).executeTakeFirst();

  it('answers each of a turn’s statements with its own rows, in one round trip', async () => {
    const { value, trips: taken } = await trips(() => Promise.all([1, 2, 3, 4].map((id) => nameOf(db, id))));
    expect(value).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }, undefined]);
    expect(taken).toBe(1);
  });

  it('sends reads sent together and other callers’ statements of the turn in one round trip', async () => {
    const { value, trips: taken } = await trips(() =>
      Promise.all([
        readTogether(db, [db.selectFrom('box').select('id').where('id', '<', 3).orderBy('id'), null]),
        nameOf(db, 3),
        db.selectFrom('box').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
      ]),
    );
    expect(value).toEqual([[[{ id: 1 }, { id: 2 }], []], { name: 'c' }, { n: 3 }]);
    expect(taken).toBe(1);
  });

  it('fails only the statement that failed among those sent with it', async () => {
    const results = await Promise.allSettled([
      nameOf(db, 1),
      sql`select 1 / (select count(*) from box where id > 99) as x`.execute(db),
      nameOf(db, 2),
      db.insertInto('box').values({ id: 1, name: 'duplicate' }).execute(),
      nameOf(db, 3),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([
      { name: 'a' },
      { name: 'b' },
      { name: 'c' },
    ]);
    expect(await nameOf(db, 1)).toEqual({ name: 'a' });
  });

  it('commits a write outside a transaction on its own, whatever else failed in its turn', async () => {
    const [failed, written] = await Promise.allSettled([
      sql`select 1 / 0 as x`.execute(db),
      db.insertInto('box').values({ id: 10, name: 'ten' }).execute(),
    ]);
    expect(failed.status).toBe('rejected');
    expect(written.status).toBe('fulfilled');
    // Seen from another pool: on the database, not only in this connection's view.
    expect(await nameOf(open(1), 10)).toEqual({ name: 'ten' });
    await db.deleteFrom('box').where('id', '=', 10).execute();
  });

  it('keeps a transaction on a connection of its own: its writes unseen by others until it commits', async () => {
    let seenInside: unknown;
    let seenOutside: unknown = 'not read';
    await db.transaction().execute(async (trx: typeof db) => {
      await trx.insertInto('box').values({ id: 20, name: 'twenty' }).execute();
      [seenInside, seenOutside] = await Promise.all([nameOf(trx, 20), nameOf(db, 20)]);
    });
    expect(seenInside).toEqual({ name: 'twenty' });
    expect(seenOutside).toBeUndefined();
    expect(await nameOf(db, 20)).toEqual({ name: 'twenty' });
    await db.deleteFrom('box').where('id', '=', 20).execute();
  });

  it('does not wait for the one connection of a pool a transaction holds longer than it holds it', async () => {
    const small = open(1);
    // The transaction holds the pool's only connection while a statement outside it is made: that
    // one waits for the commit (as any pool that size would), and then answers.
    const order: string[] = [];
    await Promise.all([
      small.transaction().execute(async (trx: typeof db) => {
        await nameOf(trx, 1);
        order.push('transaction');
      }),
      nameOf(small, 2).then((row: unknown) => order.push(`outside ${JSON.stringify(row)}`)),
    ]);
    expect(order.sort()).toEqual(['outside {"name":"b"}', 'transaction']);
    expect(await nameOf(small, 3)).toEqual({ name: 'c' });
  });

  it('replaces a connection the database dropped under a statement', async () => {
    const own = open(1);
    const slow = sql`select pg_sleep(30)`.execute(own).then(
      () => 'answered',
      (error: unknown) => error,
    );
    const pid = await terminateWhileRunning('select pg_sleep(30)');
    expect(await slow).toMatchObject({ code: '57P01' });
    const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(own);
    expect(again.rows[0]?.pid).not.toBe(pid);
    expect(await nameOf(own, 1)).toEqual({ name: 'a' });
  });

  it('replaces an idle connection the database dropped, and the process goes on', async () => {
    const own = open(1);
    const pidOf = async () =>
      ((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(own)).rows[0] as { pid: number })
        .pid;
    const pid = await pidOf();
    await sql`select pg_terminate_backend(${pid})`.execute(db);
    // Until the pool has heard of it, the dropped connection may still be handed out once.
    let now = await pidOf().catch(() => pid);
    if (now === pid) now = await pidOf();
    expect(now).not.toBe(pid);
    expect(await nameOf(own, 2)).toEqual({ name: 'b' });
  });

  it('replaces a transaction’s connection the database dropped under it', async () => {
    const own = open(1);
    const slow = own
      .transaction()
      .execute((trx: typeof db) => sql`select pg_sleep(31)`.execute(trx))
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    const pid = await terminateWhileRunning('select pg_sleep(31)');
    // The statement's failure, or its rollback's on the closed connection: a failure either way.
    expect(await slow).toBeInstanceOf(Error);
    const next = await own
      .transaction()
      .execute((trx: typeof db) => sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx));
    expect(next.rows[0]?.pid).not.toBe(pid);
  });

  it('shares nothing without pipelining: each statement its own round trip', async () => {
    const plain = open(4, false);
    await nameOf(plain, 1);
    const { value, trips: taken } = await trips(() => Promise.all([1, 2, 3].map((id) => nameOf(plain, id))));
    expect(value).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(taken).toBe(3);
  });
});
