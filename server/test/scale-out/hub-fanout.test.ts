/**
 * The `/ws` hub across processes on PostgreSQL (ws/pg-fanout.ts): two apps on one schema stand
 * for two server processes (each has its own LISTEN connection, as a process does). What their
 * subscribers observe:
 *
 * - a publish on B reaches A's subscribers once, and B's own subscribers once (not twice);
 * - one process's publishes arrive in the order made, large ones (past NOTIFY's 8000 bytes,
 *   sent by reference) among small ones, a burst of 3 000 whole, identical ones each;
 * - the listening connection terminated (pg_terminate_backend): it comes back and pushes resume;
 *   a publish made while it is away is sent once it is back;
 * - another schema in the same database hears nothing (channels are per schema).
 *
 * PostgreSQL only: on SQLite the hub is in-process by design (one process per SQLite file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgFanout } from '../../src/ws/pg-fanout.js';
import { createTestDatabase, startTestApp, type TestApp, type TestDatabase } from '../helpers/app.js';
import { withPg } from '../helpers/pg.js';
import { until } from './until.js';

const PG_URL = process.env.TEST_DATABASE_URL;
if (!PG_URL) console.info('scale-out hub tests skipped: TEST_DATABASE_URL is not set (PostgreSQL only)');

describe('the /ws hub on SQLite', () => {
  it('stays in the process: no link to other processes, a publish delivered here', async () => {
    const t = await startTestApp('sqlite');
    try {
      expect(t.app.hubFanout).toBeNull();
      const got: unknown[] = [];
      t.app.hub.subscribe('orders', (d) => got.push(d));
      expect(t.app.hub.publish('orders', { n: 1 })).toBe(1);
      expect(got).toEqual([{ n: 1 }]);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!PG_URL)('the /ws hub across two processes on PostgreSQL', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let other: TestApp;
  let otherDb: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await startTestApp('postgres', { db });
    b = await startTestApp('postgres', { db });
    // Another install in another schema of the same database (migrated from nothing by its start).
    otherDb = await createTestDatabase('postgres', { beside: db });
    other = await startTestApp('postgres', { db: otherDb });
  }, 60_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await other?.app.close();
    await otherDb?.drop();
    await db?.drop();
  });

  const fanout = (t: TestApp) => t.app.hubFanout as PgFanout;

  async function terminate(t: TestApp): Promise<number> {
    const pid = fanout(t).backendPid;
    expect(pid).not.toBeNull();
    await withPg(PG_URL as string, (client) => client.query('select pg_terminate_backend($1)', [pid]));
    return pid as number;
  }

  it('delivers a publish once on every process', async () => {
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    const onOther: unknown[] = [];
    const stops = [
      a.app.hub.subscribe('orders', (d) => onA.push(d)),
      b.app.hub.subscribe('orders', (d) => onB.push(d)),
      other.app.hub.subscribe('orders', (d) => onOther.push(d)),
    ];
    try {
      expect(b.app.hub.publish('orders', { n: 1 })).toBe(1);
      expect(onB).toEqual([{ n: 1 }]);
      await until('A hears B', () => onA.length === 1);
      expect(onA).toEqual([{ n: 1 }]);
      a.app.hub.publish('orders', { n: 2 });
      await until('B hears A', () => onB.length === 2);
      // A marker after both: once it is heard, anything duplicated would have been heard too.
      b.app.hub.publish('orders', { n: 3 });
      await until('A hears the marker', () => onA.length >= 3);
      expect(onA).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(onB).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      // Another schema of the same database: another install, another channel.
      expect(onOther).toEqual([]);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('keeps one process order, large messages (by reference) among small ones', async () => {
    const got: number[] = [];
    const stop = a.app.hub.subscribe('order-test', (d) => got.push((d as { i: number }).i));
    try {
      const big = 'x'.repeat(20_000);
      for (let i = 0; i < 40; i++) b.app.hub.publish('order-test', i % 5 === 0 ? { i, big } : { i });
      await until('all 40 arrive', () => got.length >= 40);
      expect(got).toEqual(Array.from({ length: 40 }, (_, i) => i));
      const stored = await b.app.db.selectFrom('hub_messages').select('id').execute();
      expect(stored.length).toBe(8);
    } finally {
      stop();
    }
  });

  it('a burst arrives whole and in order, identical publishes twice', async () => {
    const got: unknown[] = [];
    const stop = a.app.hub.subscribe('burst', (d) => got.push(d));
    try {
      // Sent in batches of one statement each: PostgreSQL folds identical payloads of one
      // transaction into one notification, so each message carries its own sequence number.
      b.app.hub.publish('burst', 'same');
      b.app.hub.publish('burst', 'same');
      for (let i = 0; i < 3000; i++) b.app.hub.publish('burst', i);
      await until('the burst arrives', () => got.length >= 3002, 30_000);
      expect(got).toEqual(['same', 'same', ...Array.from({ length: 3000 }, (_, i) => i)]);
    } finally {
      stop();
    }
  });

  it('listens again after its connection is terminated, and pushes resume', async () => {
    const onA: unknown[] = [];
    const stop = a.app.hub.subscribe('resume', (d) => onA.push(d));
    try {
      const before = await terminate(a);
      await until('A listens on a new connection', () => {
        const pid = fanout(a).backendPid;
        return pid !== null && pid !== before;
      });
      await fanout(a).whenListening();
      b.app.hub.publish('resume', { after: 'reconnect' });
      await until('A hears B again', () => onA.length === 1);
      expect(onA).toEqual([{ after: 'reconnect' }]);
    } finally {
      stop();
    }
  });

  it('sends a publish made while its connection is away once it is back', async () => {
    const onB: unknown[] = [];
    const stop = b.app.hub.subscribe('queued', (d) => onB.push(d));
    try {
      await terminate(a);
      // At once: A has not necessarily noticed yet, or is reconnecting.
      a.app.hub.publish('queued', { sent: 'while away' });
      await until('B hears it', () => onB.length === 1);
      expect(onB).toEqual([{ sent: 'while away' }]);
    } finally {
      stop();
    }
  });
});
