/**
 * What a balance payment at a store that accepts by itself costs the database, and how it is
 * refused. A caller must see: a payment short of both balance and stock refused for the balance,
 * the first the machine names, and nothing moved; short of stock alone, the balance where it was;
 * and on PostgreSQL, the payment, its stock, the accept and its receipts queued in four round
 * trips, counted by a proxy in front of the database (testing/pg-statement-counter.ts) — the
 * receipts are queued without reading the printers first (printing/jobs.ts `queueReceiptsQuery`),
 * and the charge, the stock and the receipt are sent with the status change that needs them
 * (orders/moves.ts `plans`), their checks made after.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUrl, type StatementCounter } from '../../../testing/pg-statement-counter.js';
import {
  createTestDatabase,
  DB_KINDS,
  startTestApp,
  type TestApp,
  type TestDatabase,
} from '../helpers/app.js';
import { type FakePrinter, startPrinter } from '../printing/listener.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { addAutoPrinter, balanceOf, type OrderWorld, orderWorld } from './fixture.js';

describe.each(DB_KINDS)('a balance payment at a store that accepts by itself on %s', (kind) => {
  let database: TestDatabase;
  let counter: StatementCounter | null = null;
  let t: TestApp;
  let api: Api;
  let world: OrderWorld;
  let printer: FakePrinter;
  let printerId: number;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    let db = database;
    if (database.database.dialect === 'postgres') {
      // The app's statements go through the counting proxy.
      const counted = await countedUrl(database.database.url);
      counter = counted.counter;
      db = { ...database, database: { ...database.database, url: counted.url } };
    }
    t = await startTestApp(kind, { db });
    api = await adminApi(t);
    world = await orderWorld(t, { balanceFen: 10_000, stock: 5 });
    const on = await api.patch(`/api/admin/stores/${world.storeId}`, { autoAccept: true });
    expect(on.status, on.text).toBe(200);
    printer = await startPrinter('ack');
    printerId = await addAutoPrinter(api, world.storeId, printer.port);
  });
  afterAll(async () => {
    await t?.close();
    await printer?.close();
    await counter?.close();
    await database?.drop();
  });

  const place = async (qty: number) => {
    const res = await api.post('/api/admin/orders', {
      storeId: world.storeId,
      userId: world.customer,
      items: [{ goodsId: world.noodles, qty }],
      fulfilment: 'pickup',
      payMethod: 'balance',
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: number; payableFen: number };
  };
  const pay = (id: number) => api.post(`/api/admin/orders/${id}/pay`, { payMethod: 'balance' });
  const stock = async () => (await api.get(`/api/admin/goods/${world.noodles}`)).body.data.stock as number;
  const status = async (id: number) => (await api.get(`/api/admin/orders/${id}`)).body.data.status as string;
  /** The payment is refused with `why`, and nothing moved: the balance, the stock, the order. */
  const refusedUnmoved = async (id: number, why: RegExp, stockLeft: number) => {
    const refused = await pay(id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toMatch(why);
    expect(await balanceOf(t, world.customer)).toBe(10_000);
    expect(await stock()).toBe(stockLeft);
    expect(await status(id)).toBe('pending_payment');
  };

  it('refuses a payment short of both balance and stock for the balance, and moves nothing', async () => {
    // 4 bowls cost more than the balance; then the stock is taken down below them.
    const order = await place(4);
    expect(order.payableFen).toBeGreaterThan(10_000);
    const lowered = await api.patch(`/api/admin/goods/${world.noodles}`, { stock: 1 });
    expect(lowered.status, lowered.text).toBe(200);
    await refusedUnmoved(order.id, /^余额不足/, 1);
  });

  it('refuses a payment short of stock alone, the balance where it was', async () => {
    const order = await place(2);
    expect(order.payableFen).toBeLessThanOrEqual(10_000);
    await refusedUnmoved(order.id, /^库存不足/, 1);
  });

  it('refuses an order of two goods when the later one is short, naming it; the earlier keeps its stock', async () => {
    // A goods with a higher id than the noodles, one left: its stock is taken after theirs.
    const { categoryId } = (await api.get(`/api/admin/goods/${world.noodles}`)).body.data;
    const [dumplings] = (await t.app.resources.insertRows(getResource('goods'), [
      { storeId: world.storeId, categoryId, name: '酸汤水饺', priceFen: 1800, stock: 1, status: 'onSale' },
    ])) as number[];
    expect(dumplings).toBeGreaterThan(world.noodles);
    const restocked = await api.patch(`/api/admin/goods/${world.noodles}`, { stock: 5 });
    expect(restocked.status, restocked.text).toBe(200);
    const res = await api.post('/api/admin/orders', {
      storeId: world.storeId,
      userId: world.customer,
      items: [
        { goodsId: world.noodles, qty: 1 },
        { goodsId: dumplings, qty: 2 },
      ],
      fulfilment: 'pickup',
      payMethod: 'balance',
    });
    expect(res.status, res.text).toBe(200);
    const refused = await pay(res.body.data.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toBe('库存不足：「酸汤水饺」仅剩 1 份');
    expect(await stock()).toBe(5);
    expect((await api.get(`/api/admin/goods/${dumplings}`)).body.data.stock).toBe(1);
    expect(await balanceOf(t, world.customer)).toBe(10_000);
    expect(await status(res.body.data.id)).toBe('pending_payment');
  });

  it('pays, reserves, accepts and queues the receipt in four round trips (PostgreSQL)', async () => {
    const restocked = await api.patch(`/api/admin/goods/${world.noodles}`, { stock: 5 });
    expect(restocked.status, restocked.text).toBe(200);
    const order = await place(1);
    const before = counter?.transactions().length ?? 0;
    const paid = await pay(order.id);
    // The payment's transaction (the receipt's sending after the commit runs outside one).
    const trips = Math.max(...(counter?.transactions() ?? []).slice(before));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data.status).toBe('accepted');
    expect(await balanceOf(t, world.customer)).toBe(10_000 - order.payableFen);
    expect(await stock()).toBe(4);
    // The receipt was queued on the store's printer, and sent after the commit.
    await t.app.printing.idle();
    const jobs = (await api.get(`/api/admin/printJobs?orderId=${order.id}`)).body.data.results;
    expect(jobs).toMatchObject([{ printerId, status: 'done', copies: 1 }]);
    // BEGIN with the order's read; the status change with the store, the balance and the stock;
    // the accept with its savepoint and the receipts queued; the timeline, audit and COMMIT.
    if (counter) {
      expect(trips).toBeGreaterThan(2);
      expect(trips).toBeLessThanOrEqual(4);
    }
  });
});
