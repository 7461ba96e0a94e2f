/**
 * Two built server processes (server/dist/main.js) on one PostgreSQL schema, as behind a load
 * balancer: BLOB_STORE=database, one WANXIANG_SECRET_KEY, each its own data folder. What a user
 * of the pair observes (server/SCALE-OUT.md):
 *
 * - scan-to-login: a browser's socket on A waits on `login:<ticket>`; the phone scans and
 *   confirms through B; A's socket hears each status at once (no polling in between);
 * - the order board: an order placed through B reaches an operator's board socket on A;
 * - an image uploaded through A is served by B with the same bytes;
 * - the public chat-bot limit and the sign-in limit are counted once across both: requests
 *   alternating between the processes are refused at the same count as on one process;
 * - a restore through A: B drops what it kept from before (db/data-epoch.ts, told through the hub)
 *   and answers from the restored data at once, not when its kept totals would have expired.
 *
 * Timers running once across processes: server/test/scheduler/two-processes.test.ts (real
 * processes, both databases) — not repeated here.
 *
 * PostgreSQL only (one process per SQLite file is the embedded deployment); skipped with a
 * notice without TEST_DATABASE_URL. Needs the build (`npm run build -w @wanxiang/server`).
 * Waits are on messages and conditions with deadlines, never sleeps.
 */
import { randomBytes } from 'node:crypto';
import { ORDER_BOARD_TOPIC, SIGNIN_LIMIT } from '@wanxiang/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type BuiltServer,
  startBuiltServer,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
  TEST_DEMO_PASSWORD,
} from '../../../testing/built-server.js';
import { PUBLIC_REPLIES_PER_MINUTE } from '../../src/domain/community/chat-bot-routes.js';
import { createTestDatabase, startTestApp, type TestApp, type TestDatabase } from '../helpers/app.js';
import { type OrderWorld, orderWorld } from '../orders/fixture.js';

const PG_URL = process.env.TEST_DATABASE_URL;
if (!PG_URL)
  console.info('scale-out two-process test skipped: TEST_DATABASE_URL is not set (PostgreSQL only)');

/** How long a push may take to cross processes before the test calls it lost. */
const PUSH_DEADLINE_MS = 10_000;

interface Socket {
  next(what: string): Promise<Record<string, unknown>>;
  close(): void;
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Record<string, unknown> & { [k: string]: unknown } };
}

async function call(
  server: BuiltServer,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

async function signIn(server: BuiltServer, username: string, password: string): Promise<Answer> {
  const captcha = await call(server, 'GET', '/api/captcha/request');
  return call(server, 'POST', '/api/login/signin', {
    json: { username, password, captchaId: captcha.body.captchaId, captchaCode: TEST_CAPTCHA_CODE },
  });
}

async function tokenOf(server: BuiltServer, username: string, password: string): Promise<string> {
  const res = await signIn(server, username, password);
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(res.body)}`);
  return (res.body.data as { token: string }).token;
}

describe.skipIf(!PG_URL)('two built server processes on one PostgreSQL', () => {
  let db: TestDatabase;
  let a: BuiltServer;
  let b: BuiltServer;
  /** In-process, on the same schema: writes an order's world (store, goods) as a fixture. */
  let setup: TestApp;
  let world: OrderWorld;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    if (db.database.dialect !== 'postgres') throw new Error('postgres expected');
    const env = {
      DATABASE_URL: db.database.url,
      BLOB_STORE: 'database',
      WANXIANG_SECRET_KEY: randomBytes(32).toString('hex'),
      // The test's own schedule: the timers have their own two-process test.
      SCHEDULER: 'off',
      // As behind a load balancer: the client's address from X-Forwarded-For.
      TRUST_PROXY: 'true',
    };
    // One after the other: the first creates the accounts, the second finds them.
    a = await startBuiltServer(env);
    b = await startBuiltServer(env);
    setup = await startTestApp('postgres', { db });
    world = await orderWorld(setup);
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await setup?.app.close();
    await db?.drop();
  });

  it('scan-to-login: confirmed through B, the browser waiting on A hears it at once', async () => {
    const created = await call(a, 'POST', '/api/login/qr');
    expect(created.status).toBe(200);
    const ticket = (created.body.data as { ticket: string }).ticket;
    // The browser's socket, on A.
    const login = await subscribed(a, `login:${ticket}`);
    try {
      const phone = await tokenOf(b, 'editor', TEST_DEMO_PASSWORD);
      expect((await call(b, 'POST', `/api/login/qr/${ticket}/scan`, { token: phone })).status).toBe(200);
      expect(await login.next('scanned')).toEqual({ topic: `login:${ticket}`, data: { status: 'scanned' } });
      expect((await call(b, 'POST', `/api/login/qr/${ticket}/confirm`, { token: phone })).status).toBe(200);
      expect(await login.next('confirmed')).toEqual({
        topic: `login:${ticket}`,
        data: { status: 'confirmed' },
      });
      // The browser collects its token from A.
      const claim = await call(a, 'GET', `/api/login/qr/${ticket}`);
      expect(claim.body.data?.token).toEqual(expect.any(String));
    } finally {
      login.close();
    }
  });

  it('the order board: an order placed through B reaches an operator on A', async () => {
    const operatorOnA = await tokenOf(a, 'operator', TEST_DEMO_PASSWORD);
    const board = await subscribed(a, ORDER_BOARD_TOPIC, operatorOnA);
    try {
      const operatorOnB = await tokenOf(b, 'operator', TEST_DEMO_PASSWORD);
      const placed = await call(b, 'POST', '/api/admin/orders', {
        token: operatorOnB,
        json: {
          storeId: world.storeId,
          userId: world.customer,
          items: [{ goodsId: world.noodles, qty: 1 }],
          fulfilment: 'delivery',
          payMethod: 'balance',
          address: '北京市朝阳区望京街 9 号',
        },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const order = placed.body.data as { id: number; orderNo: string };
      expect(await board.next('the new order')).toMatchObject({
        topic: ORDER_BOARD_TOPIC,
        data: { type: 'created', order: { id: order.id, orderNo: order.orderNo, status: 'pending_payment' } },
      });
    } finally {
      board.close();
    }
  });

  it('an image uploaded through A is served by B with the same bytes', async () => {
    const admin = await tokenOf(a, 'admin', TEST_ADMIN_PASSWORD);
    const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#16a085' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'green.png');
    const res = await fetch(`${a.url}/api/admin/uploads?resource=photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const uploaded = (await res.json()) as { data: { url: string } };
    expect(res.status, JSON.stringify(uploaded)).toBe(200);
    const served = await fetch(`${b.url}${uploaded.data.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('the public chat-bot limit is counted once across both processes', async () => {
    const admin = await tokenOf(b, 'admin', TEST_ADMIN_PASSWORD);
    const made = await call(b, 'POST', '/api/admin/chatBots', {
      token: admin,
      json: { name: '客服', rules: [{ keyword: '价格', reply: '价格请见官网' }], enabled: true },
    });
    expect(made.status).toBe(200);
    const bot = (made.body.data as { id: number }).id;
    const minute = () => Math.floor(Date.now() / 60_000);
    // Alternating processes, one more request than the limit; again, from another client address,
    // if the minute (the fixed window) turned during the loop, which would restart the count.
    for (let attempt = 0; ; attempt++) {
      const startedIn = minute();
      const statuses: number[] = [];
      const client = { 'x-forwarded-for': `203.0.113.${attempt + 1}` };
      for (let i = 0; i <= PUBLIC_REPLIES_PER_MINUTE; i++) {
        const server = i % 2 === 0 ? a : b;
        const res = await call(server, 'POST', `/api/public/chat-bots/${bot}/reply`, {
          json: { message: '价格' },
          headers: client,
        });
        statuses.push(res.status);
      }
      if (minute() !== startedIn && attempt < 2) continue;
      expect(statuses.slice(0, PUBLIC_REPLIES_PER_MINUTE)).toEqual(
        Array(PUBLIC_REPLIES_PER_MINUTE).fill(200),
      );
      expect(statuses[PUBLIC_REPLIES_PER_MINUTE]).toBe(429);
      break;
    }
  });

  it('the sign-in limit is counted once across both processes', async () => {
    const username = 'operator';
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN_LIMIT.perUsername; i++) {
      statuses.push((await signIn(i % 2 === 0 ? a : b, username, 'wrong-password')).status);
    }
    expect(statuses.slice(0, SIGNIN_LIMIT.perUsername)).not.toContain(429);
    expect(statuses[SIGNIN_LIMIT.perUsername]).toBe(429);
    // Locked on both, the right password included.
    expect((await signIn(b, username, TEST_DEMO_PASSWORD)).status).toBe(429);
    expect((await signIn(a, username, TEST_DEMO_PASSWORD)).status).toBe(429);
  });

  // Last: the restore puts the whole database back as the backup had it.
  it('a restore through A: B answers from the restored data at once, no total it counted before', async () => {
    const onA = await tokenOf(a, 'admin', TEST_ADMIN_PASSWORD);
    const onB = await tokenOf(b, 'admin', TEST_ADMIN_PASSWORD);
    expect(
      (await call(a, 'POST', '/api/admin/bbsTags', { token: onA, json: { name: '恢复前' } })).status,
    ).toBe(200);
    const backup = await fetch(`${a.url}/api/admin/backup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${onA}` },
    });
    expect(backup.status).toBe(200);
    const archive = Buffer.from(await backup.arrayBuffer());

    // B counts the tags after one more (a full page of one: the total is counted, and kept).
    expect(
      (await call(b, 'POST', '/api/admin/bbsTags', { token: onB, json: { name: '备份后' } })).status,
    ).toBe(200);
    const list = async (query: string) =>
      (await call(b, 'GET', `/api/admin/bbsTags?${query}`, { token: onB })).body.data as unknown as {
        results: Array<{ name: string }>;
        page: { total: number };
      };
    expect((await list('limit=1')).page.total).toBe(2);
    const counted = Date.now();

    const restored = await fetch(`${a.url}/api/admin/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${onA}`, 'content-type': 'application/gzip' },
      body: archive,
    });
    expect(restored.status, await restored.clone().text()).toBe(200);
    // B kept its count for up to COUNT_TTL_MS (10 s): only the restore's message can end it sooner.
    let total: unknown;
    while (Date.now() - counted < 8_000) {
      total = (await list('limit=1')).page.total;
      if (total === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(total, 'B still counted the tag the restore took away').toBe(1);
    expect((await list('limit=20')).results.map((t) => t.name)).toEqual(['恢复前']);
  });
});

/** A socket subscribed to `topic` (and its `subscribed` answer read). */
async function subscribed(server: BuiltServer, topic: string, token?: string): Promise<Socket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  const inbox: Record<string, unknown>[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const wake = waiting.shift();
    if (wake) wake(message);
    else inbox.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (what: string) => {
    const ready = inbox.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${PUSH_DEADLINE_MS} ms`)),
        PUSH_DEADLINE_MS,
      );
      waiting.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  };
  socket.send(JSON.stringify({ type: 'subscribe', topic, ...(token ? { token } : {}) }));
  expect(await next('subscribed')).toEqual({ type: 'subscribed', topic });
  return { next, close: () => socket.close() };
}
