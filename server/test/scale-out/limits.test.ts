/**
 * Limits counted in the database hold across processes: two apps on one database (SQLite: one
 * file, as two processes on one machine; PostgreSQL: one schema), requests alternating between
 * them, are refused at the same count as one process refuses them — the public chat-bot replies
 * (db/rate-window.ts) and sign-in attempts (domain/auth/signin-limits.ts). A shared test clock
 * keeps the windows still. The built processes walk the same on PostgreSQL in two-processes.test.ts.
 */
import { SIGNIN_LIMIT } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_REPLIES_PER_MINUTE } from '../../src/domain/community/chat-bot-routes.js';
import {
  createTestDatabase,
  DB_KINDS,
  DEMO_PASSWORD,
  startTestApp,
  type TestApp,
  TestClock,
  type TestDatabase,
} from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';
import { adminApi } from '../resources/helpers.js';

describe.each(DB_KINDS)('limits across two processes on %s', (kind) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const clock = new TestClock();

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    a = await startTestApp(kind, { db, clock });
    b = await startTestApp(kind, { db, clock });
  }, 60_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  it('the public chat-bot replies: the limit is one count for both', async () => {
    const made = await (await adminApi(a)).post('/api/admin/chatBots', {
      name: '客服',
      rules: [{ keyword: '价格', reply: '价格请见官网' }],
      enabled: true,
    });
    const bot = made.body.data.id as number;
    const reply = (t: TestApp, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/public/chat-bots/${bot}/reply`,
        payload: { message: '价格' },
        remoteAddress: ip,
      });
    const statuses: number[] = [];
    for (let i = 0; i <= PUBLIC_REPLIES_PER_MINUTE; i++)
      statuses.push((await reply(i % 2 === 0 ? a : b, '198.51.100.20')).statusCode);
    expect(statuses.slice(0, PUBLIC_REPLIES_PER_MINUTE)).toEqual(Array(PUBLIC_REPLIES_PER_MINUTE).fill(200));
    expect(statuses[PUBLIC_REPLIES_PER_MINUTE]).toBe(429);
    expect((await reply(a, '198.51.100.20')).statusCode).toBe(429);
    // Another address has its own count; the next minute starts again, and the past one is pruned.
    expect((await reply(b, '198.51.100.21')).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await reply(b, '198.51.100.20')).statusCode).toBe(200);
    const windows = await a.app.db.selectFrom('rate_windows').select(['subject', 'window_start']).execute();
    expect(windows.every((w) => Number(w.window_start) > clock.now() - 60_000)).toBe(true);
  });

  it('sign-in: failures through either process count together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN_LIMIT.perUsername; i++)
      statuses.push((await signIn(i % 2 === 0 ? a.app : b.app, 'editor', 'wrong-password')).statusCode);
    expect(statuses.slice(0, SIGNIN_LIMIT.perUsername)).not.toContain(429);
    expect(statuses[SIGNIN_LIMIT.perUsername]).toBe(429);
    expect((await signIn(a.app, 'editor', DEMO_PASSWORD)).statusCode).toBe(429);
  });
});
