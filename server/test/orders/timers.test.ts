import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_TIMERS_TASK } from '../../src/domain/orders/timers.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { anyDb, balanceOf, type OrderWorld, orderWorld, placeOrder, sendOut } from './fixture.js';

const MINUTE = 60_000;

describe.each(DB_KINDS)('order timers on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 100_000 });
  });
  afterAll(async () => t?.close());

  const get = async (id: number) => (await api.get(`/api/admin/orders/${id}`)).body.data;
  const runTimers = () => t.app.scheduler.runBody(ORDER_TIMERS_TASK);

  it('cancels an order left unpaid for 15 minutes, returning its points; a paid one stays', async () => {
    const unpaid = await placeOrder(api, w, { fulfilment: 'pickup', address: null });
    const paid = await placeOrder(api, w, { fulfilment: 'pickup', address: null });
    await api.post(`/api/admin/orders/${paid.id}/pay`, { payMethod: 'balance' });
    t.clock.advance(14 * MINUTE);
    await runTimers();
    expect((await get(unpaid.id)).status).toBe('pending_payment');
    t.clock.advance(2 * MINUTE);
    await runTimers();
    expect(await get(unpaid.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: '超时取消',
      cancelledAt: expect.any(String),
    });
    expect((await get(paid.id)).status).toBe('paid');
    const history = (await api.get(`/api/admin/orders/${unpaid.id}/history`)).body.data;
    expect(history.at(-1)).toMatchObject({
      from: 'pending_payment',
      to: 'cancelled',
      operator: '系统',
      note: '超时取消（系统）',
    });
    const audit = await anyDb(t)
      .selectFrom('audit_logs')
      .select(['action', 'user_id'])
      .where('resource', '=', 'orders')
      .where('record_id', '=', unpaid.id)
      .execute();
    expect(audit).toContainEqual({ action: 'orders.expire', user_id: null });
  });

  it('completes a delivery order still delivering after the configured time, and frees its runner', async () => {
    const order = await placeOrder(api, w);
    await sendOut(api, w, order.id);
    const b = await balanceOf(t, w.customer);
    t.clock.advance(119 * MINUTE);
    await runTimers();
    expect((await get(order.id)).status).toBe('delivering');
    t.clock.advance(2 * MINUTE);
    await runTimers();
    expect((await get(order.id)).status).toBe('completed');
    const delivery = await anyDb(t)
      .selectFrom('deliveries')
      .select('status')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(delivery.status).toBe('delivered');
    const runner = await anyDb(t)
      .selectFrom('runners')
      .select('status')
      .where('id', '=', w.runner)
      .executeTakeFirstOrThrow();
    expect(runner.status).toBe('idle');
    expect(await balanceOf(t, w.customer)).toBe(b);
  });
});
