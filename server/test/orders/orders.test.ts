import { getResource, priceOrder } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { anyDb, balanceOf, type OrderWorld, orderWorld, placeOrder } from './fixture.js';

describe.each(DB_KINDS)('orders on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 100_000 });
  });
  afterAll(async () => t?.close());
  const db = () => anyDb(t);

  const move = (id: number, name: string, body: unknown = {}) =>
    api.post(`/api/admin/orders/${id}/${name}`, body);
  const history = async (id: number) =>
    (await api.get(`/api/admin/orders/${id}/history`)).body.data as {
      from: string | null;
      to: string;
      note: string | null;
    }[];

  it('prices a cart with core pricing from the database prices, ignoring client figures', async () => {
    const res = await api.post('/api/admin/orders/price', {
      storeId: w.storeId,
      items: [
        { goodsId: w.noodles, qty: 2, unitPriceFen: 1 },
        { goodsId: w.tea, sku: '大杯', qty: 1 },
      ],
      fulfilment: 'delivery',
      payableFen: 1,
    });
    expect(res.status, res.text).toBe(200);
    const expected = priceOrder({
      lines: [
        { goodsId: w.noodles, sku: null, qty: 2, unitPriceFen: 2800 },
        { goodsId: w.tea, sku: '大杯', qty: 1, unitPriceFen: 1800 },
      ],
      packingFen: 100,
      deliveryFen: 500,
    });
    expect(res.body.data.payableFen).toBe(expected.payableFen);
    expect(res.body.data.payableFen).toBe(2 * 2800 + 1800 + 100 + 500);
    expect(res.body.data.lines.map((l: { payableFen: number }) => l.payableFen)).toEqual(
      expected.lines.map((l) => l.payableFen),
    );
  });

  it('refuses a bad cart with Chinese messages per field and stores nothing', async () => {
    const res = await api.post('/api/admin/orders', {
      storeId: w.storeId,
      items: [{ goodsId: w.tea, qty: 0 }],
      fulfilment: 'teleport',
      payMethod: 'balance',
    });
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toMatchObject({
      'items.0.qty': '数量至少为 1',
      fulfilment: expect.stringContaining('履约方式'),
    });
    const noSku = await api.post('/api/admin/orders/price', {
      storeId: w.storeId,
      items: [{ goodsId: w.tea, qty: 1 }],
      fulfilment: 'pickup',
    });
    expect(noSku.status).toBe(422);
    expect(noSku.body.data.fields['items.0.sku']).toBe('请选择商品「奶茶」的规格');
  });

  it('walks a delivery order: pay by balance, accept, dispatch, deliver, complete — one history row per move', async () => {
    const start = await balanceOf(t, w.customer);
    const order = await placeOrder(api, w);
    expect(order.status).toBe('pending_payment');
    expect(order.orderNo).toMatch(/^\d{22}$/);
    // The time it was made (China time) and its id: as answered, and as kept.
    expect(order.orderNo.slice(-8)).toBe(String(order.id).padStart(8, '0'));
    expect(order.orderNo.slice(0, 8)).toBe(
      new Date(Date.parse(String(order.createdAt)) + 8 * 3_600_000)
        .toISOString()
        .slice(0, 10)
        .replaceAll('-', ''),
    );
    expect((await api.get(`/api/admin/orders/${order.id}`)).body.data.orderNo).toBe(order.orderNo);
    expect((await move(order.id, 'accept')).body.message).toBe('订单待支付，不能接单');

    const paid = await move(order.id, 'pay', { payMethod: 'balance' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', paidFen: order.payableFen });
    expect(await balanceOf(t, w.customer)).toBe(start - order.payableFen);

    expect((await move(order.id, 'accept')).status).toBe(200);
    const delivery = () =>
      db().selectFrom('deliveries').selectAll().where('order_id', '=', order.id).executeTakeFirstOrThrow();
    expect((await delivery()).status).toBe('waiting');
    expect((await move(order.id, 'prepare')).status).toBe(200);
    expect((await move(order.id, 'ready')).status).toBe(200);
    const noRunner = await move(order.id, 'dispatch');
    expect(noRunner.status).toBe(409);
    expect(noRunner.body.message).toBe('请先指派骑手');
    const dispatched = await move(order.id, 'dispatch', { runnerId: w.runner });
    expect(dispatched.status, dispatched.text).toBe(200);
    expect(dispatched.body.data).toMatchObject({ status: 'delivering', runnerId: w.runner });
    expect(await delivery()).toMatchObject({ status: 'pickedUp', runner_id: w.runner });
    const runner = () =>
      db()
        .selectFrom('runners')
        .select(['status', 'today_count'])
        .where('id', '=', w.runner)
        .executeTakeFirstOrThrow();
    expect((await runner()).status).toBe('delivering');
    expect((await move(order.id, 'deliver')).body.data.status).toBe('delivered');
    expect((await delivery()).status).toBe('delivered');
    expect(await runner()).toMatchObject({ status: 'idle' });
    const points = (
      await t.app.db
        .selectFrom('users')
        .select('points')
        .where('id', '=', w.customer)
        .executeTakeFirstOrThrow()
    ).points;
    expect((await move(order.id, 'complete')).body.data.status).toBe('completed');
    const after = (
      await t.app.db
        .selectFrom('users')
        .select('points')
        .where('id', '=', w.customer)
        .executeTakeFirstOrThrow()
    ).points;
    expect(Number(after) - Number(points)).toBe(Math.floor(order.payableFen / 100));

    expect((await history(order.id)).map((h) => `${h.from ?? '-'}→${h.to}`)).toEqual([
      '-→pending_payment',
      'pending_payment→paid',
      'paid→accepted',
      'accepted→preparing',
      'preparing→ready',
      'ready→delivering',
      'delivering→delivered',
      'delivered→completed',
    ]);
  });

  it('refunds one unit of a line to the balance exactly, and shows it on the timeline', async () => {
    const order = await placeOrder(api, w, { fulfilment: 'pickup', address: null });
    await move(order.id, 'pay', { payMethod: 'balance' });
    const before = await balanceOf(t, w.customer);
    const items = order.items as { payableFen: number; qty: number }[];
    const res = await move(order.id, 'refund', { reason: '少送一碗', lines: [{ index: 0, qty: 1 }] });
    expect(res.status, res.text).toBe(200);
    const share = Math.floor((items[0]?.payableFen as number) / 2);
    expect(res.body.data).toMatchObject({
      kind: 'partial',
      amountFen: share,
      status: 'refunded',
      payMethod: 'balance',
    });
    expect(await balanceOf(t, w.customer)).toBe(before + share);
    const line = (await history(order.id)).at(-1);
    expect(line?.note).toContain('部分退款');
    expect(line?.note).toContain('少送一碗');
    // Never more than paid: the rest, then nothing.
    const rest = await move(order.id, 'refund', { reason: '整单退' });
    expect(rest.body.data.amountFen).toBe(order.payableFen - share);
    const again = await move(order.id, 'refund', { reason: '再退' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('订单已全额退款');
    expect(await balanceOf(t, w.customer)).toBe(before + order.payableFen);
  });

  it('cancels a paid order with a reason: refunded to the balance, stock released, history written', async () => {
    const stock = async () =>
      Number(
        (await db().selectFrom('goods').select('stock').where('id', '=', w.noodles).executeTakeFirstOrThrow())
          .stock,
      );
    const order = await placeOrder(api, w);
    const s0 = await stock();
    const b0 = await balanceOf(t, w.customer);
    await move(order.id, 'pay', { payMethod: 'balance' });
    expect(await stock()).toBe(s0 - 2);
    const noReason = await move(order.id, 'cancel', {});
    expect(noReason.status).toBe(422);
    const cancelled = await move(order.id, 'cancel', { reason: '顾客电话取消' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      cancelReason: '顾客电话取消',
      refundedFen: order.payableFen,
    });
    expect(await balanceOf(t, w.customer)).toBe(b0);
    expect(await stock()).toBe(s0);
    expect((await move(order.id, 'refund', { reason: 'x' })).status).toBe(409);
  });

  it('refuses to pay more than the balance holds, and changes nothing', async () => {
    const big = await placeOrder(api, w, { items: [{ goodsId: w.noodles, qty: 999 }] });
    const b0 = await balanceOf(t, w.customer);
    const res = await move(big.id, 'pay', { payMethod: 'balance' });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^余额不足/);
    expect(await balanceOf(t, w.customer)).toBe(b0);
    expect((await api.get(`/api/admin/orders/${big.id}`)).body.data.status).toBe('pending_payment');
  });

  it('suggests the idle runner nearest the store, assigns and reassigns, and the runners follow', async () => {
    const [far, near] = await t.app.resources.insertRows(getResource('runners'), [
      { name: '远骑手', phone: '13900000001', status: 'idle', storeIds: [], lng: 116.5, lat: 40.0 },
      { name: '近骑手', phone: '13900000002', status: 'idle', storeIds: [], lng: 116.4, lat: 39.91 },
    ]);
    await db().updateTable('stores').set({ lng: 116.397, lat: 39.908 }).where('id', '=', w.storeId).execute();
    const order = await placeOrder(api, w);
    await move(order.id, 'pay', { payMethod: 'balance' });
    await move(order.id, 'accept');
    const board = await api.get(`/api/admin/dispatch?storeId=${w.storeId}`);
    expect(board.status, board.text).toBe(200);
    const entry = board.body.data.waiting.find((e: { order: { id: number } }) => e.order.id === order.id);
    expect(entry.deliveryStatus).toBe('waiting');
    expect(entry.suggestion.id).toBe(near);
    const assign = (runnerId: number) =>
      api.post(`/api/admin/deliveries/${entry.deliveryId}/assign`, { runnerId });
    expect((await assign(near as number)).status).toBe(200);
    const status = async (id: number) =>
      (await db().selectFrom('runners').select('status').where('id', '=', id).executeTakeFirstOrThrow())
        .status;
    expect(await status(near as number)).toBe('delivering');
    expect((await assign(far as number)).status).toBe(200);
    expect(await status(near as number)).toBe('idle');
    expect(await status(far as number)).toBe('delivering');
    expect((await api.get(`/api/admin/orders/${order.id}`)).body.data.runnerId).toBe(far);
    await move(order.id, 'prepare');
    await move(order.id, 'ready');
    // Dispatch takes the assigned runner; then he can no longer be changed.
    expect((await move(order.id, 'dispatch')).body.data.runnerId).toBe(far);
    expect((await assign(near as number)).status).toBe(409);
  });
});
