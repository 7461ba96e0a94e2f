/**
 * GET /api/admin/dashboard: today's orders and revenue against yesterday up to the same time
 * (China days), what waits for the store, a runner or a refund decision — and only the figures
 * of the areas the user may read.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { adminApi, apiAs } from '../resources/helpers.js';

const at = (iso: string) => Date.parse(iso);

describe.each(DB_KINDS)('dashboard on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
    // 2025-01-15 12:00 in China.
    t.clock.current = at('2025-01-15T04:00:00Z');
    const [store] = await t.app.resources.insertRows(getResource('stores'), [
      { name: '朝阳门店', phone: '010-12345678', address: '北京市朝阳区建国路 1 号', status: 'open' },
    ]);
    let n = 0;
    const order = (status: string, paidFen: number, paidAt: string | null) => ({
      orderNo: `NO${String(++n).padStart(4, '0')}`,
      storeId: store,
      status,
      fulfilment: 'delivery',
      payableFen: paidFen || 900,
      paidFen,
      paidAt: paidAt && at(paidAt),
    });
    const ids = await t.app.resources.insertRows(getResource('orders'), [
      order('paid', 2000, '2025-01-15T01:00:00Z'), // today 09:00
      order('paid', 1500, '2025-01-14T16:00:00Z'), // today 00:00
      order('accepted', 1000, '2025-01-15T03:59:00Z'), // today 11:59
      order('completed', 4000, '2025-01-14T02:00:00Z'), // yesterday 10:00: before the same time
      order('completed', 9000, '2025-01-14T05:00:00Z'), // yesterday 13:00: after it
      order('completed', 700, '2025-01-14T15:59:59Z'), // yesterday 23:59
      order('pending_payment', 0, null),
    ]);
    await t.app.resources.insertRows(getResource('deliveries'), [
      { orderId: ids[0], status: 'waiting' },
      { orderId: ids[1], status: 'waiting' },
      { orderId: ids[2], status: 'assigned' },
    ]);
    await t.app.resources.insertRows(getResource('orderRefunds'), [
      { refundNo: 'RF1', orderId: ids[3], kind: 'partial', amountFen: 100, status: 'pending' },
      {
        refundNo: 'RF2',
        orderId: ids[4],
        kind: 'partial',
        amountFen: 100,
        status: 'refunded',
        refundedAt: at('2025-01-15T02:00:00Z'),
      },
    ]);
    const job = (name: string, status: string) => ({ name, url: `https://${name}.example.com/`, status });
    await t.app.resources.insertRows(getResource('monitorJobs'), [
      job('a', 'down'),
      job('b', 'down'),
      job('c', 'up'),
      job('d', 'pending'), // a failure not yet confirmed by its retries is not down
    ]);
    await t.app.resources.insertRows(getResource('sslJobs'), [
      { host: 'a.example.com', port: 443, status: 'expiring' },
      { host: 'b.example.com', port: 443, status: 'ok' },
      { host: 'c.example.com', port: 443, status: 'expired' },
    ]);
  });
  afterAll(async () => t?.close());

  it('gives the admin every figure', async () => {
    const admin = await adminApi(t);
    const res = await admin.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      at: t.clock.now(),
      ordersToday: { today: 3, yesterday: 1 },
      revenueTodayFen: { today: 4500, yesterday: 4000 },
      awaitingAcceptance: 2,
      awaitingRunner: 2,
      pendingRefunds: 1,
      jobsDown: 2,
      certificatesExpiring: 1,
    });
  });

  it('counts yesterday up to the same time of day as now', async () => {
    const admin = await adminApi(t);
    t.clock.current = at('2025-01-15T15:59:59Z'); // 23:59:59 in China
    try {
      const { body } = await admin.get('/api/admin/dashboard');
      expect(body.data.ordersToday).toEqual({ today: 3, yesterday: 3 });
      expect(body.data.revenueTodayFen).toEqual({ today: 4500, yesterday: 13700 });
      t.clock.current = at('2025-01-15T16:00:00Z'); // the 16th begins
      const next = (await admin.get('/api/admin/dashboard')).body.data;
      expect(next.ordersToday).toEqual({ today: 0, yesterday: 1 });
    } finally {
      t.clock.current = at('2025-01-15T04:00:00Z');
    }
  });

  it('leaves out the figures of areas the user may not read', async () => {
    // The editor reads blog, law, bbs, music and movie: none of the dashboard's areas.
    const editor = apiAs(t.app, await tokenOf(t.app, 'editor', DEMO_PASSWORD));
    const res = await editor.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ at: t.clock.now() });
    // A user with no role at all: the same, not an error (spec §5 ejects them in the UI).
    const guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
    expect((await guest.get('/api/admin/dashboard')).body.data).toEqual({ at: t.clock.now() });
  });

  it('gives the operator its areas: ordering, delivery and finance', async () => {
    const operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    const { body } = await operator.get('/api/admin/dashboard');
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'at',
        'awaitingAcceptance',
        'awaitingRunner',
        'ordersToday',
        'pendingRefunds',
        'revenueTodayFen',
      ].sort(),
    );
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/dashboard' })).statusCode).toBe(401);
  });
});
