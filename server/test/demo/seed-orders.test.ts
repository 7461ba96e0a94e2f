/**
 * The bench seeder (server/bench/seed-orders.ts) at a small scale: it loads into a database the
 * server migrated, and the server then serves those orders. Its speed is measured by running it,
 * not here.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedOrdersReport, seedOrders } from '../../bench/seed-orders.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  DB_KINDS,
  startTestApp,
  type TestApp,
  type TestDatabase,
} from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { walkProblem } from './order-walk.js';

describe.each(DB_KINDS)('bench seeder (%s)', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let report: SeedOrdersReport;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    report = await seedOrders({
      ...(database.database.dialect === 'postgres'
        ? { postgres: database.database.url }
        : { file: path.join(database.dataDir, 'wanxiang.db') }),
      count: 3000,
      users: 400,
      stores: 6,
      batch: 1000,
      now: Date.UTC(2025, 0, 1, 8),
      log: () => undefined,
    });
    t = await startTestApp(kind, { db: database });
    token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('loads the orders and what they refer to', () => {
    expect(report).toMatchObject({ orders: 3000, users: 400, stores: 6 });
  });

  it('leaves a database the server lists orders from', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/orders?status=paid',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const rows = body.data.results as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((o) => o.status === 'paid' && o.paidAt !== null)).toBe(true);
    // Newest first, and ids increase with createdAt.
    const times = rows.map((o) => Date.parse(o.createdAt as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const ids = rows.map((o) => o.id as number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/orders?limit=500',
      headers: bearer(token),
    });
    for (const o of all.json().data.results as Record<string, number | null>[]) {
      expect(o.payableFen).toBe(
        Math.max(
          0,
          (o.goodsFen as number) +
            (o.packingFen as number) +
            (o.deliveryFen as number) -
            (o.discountFen as number) -
            (o.couponFen as number),
        ),
      );
    }
  });

  it("walks every order along core's order machine, stamping each step's time in order", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/orders?limit=500',
      headers: bearer(token),
    });
    const rows = res.json().data.results as Record<string, unknown>[];
    expect(rows.map((o) => walkProblem(o)).filter((p) => p !== null)).toEqual([]);
    expect(new Set(rows.map((o) => o.status)).size).toBeGreaterThanOrEqual(6);
  });

  it('refers to stores and users that exist', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/orders?limit=50',
      headers: bearer(token),
    });
    const rows = res.json().data.results as { storeId: number; userId: number }[];
    for (const { storeId, userId } of rows.slice(0, 10)) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/admin/stores/${storeId}`, headers: bearer(token) }))
          .statusCode,
      ).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/admin/users/${userId}`, headers: bearer(token) }))
          .statusCode,
      ).toBe(200);
    }
  });
});
