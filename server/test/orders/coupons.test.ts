/** Coupons in an order's life: priced, used by one order, given back on cancel; rules on completion. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { anyDb, type OrderWorld, orderWorld, placeOrder } from './fixture.js';

describe.each(DB_KINDS)('coupons on orders on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let template: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 100_000 });
    const made = await api.post('/api/admin/couponTemplates', {
      name: '满30减5',
      kind: 'cash',
      valueFen: 500,
      thresholdFen: 3000,
      validity: 'relative',
      validDays: 7,
      perUserLimit: 10,
    });
    expect(made.status, made.text).toBe(200);
    template = made.body.data.id;
  });
  afterAll(async () => t?.close());

  const issue = async () => {
    const res = await api.post(`/api/admin/couponTemplates/${template}/issue`, { userIds: [w.customer] });
    expect(res.status, res.text).toBe(200);
    const row = await anyDb(t)
      .selectFrom('user_coupons')
      .select(['id'])
      .where('user_id', '=', w.customer)
      .where('template_id', '=', template)
      .where('status', '=', 'unused')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  const couponStatus = async (id: number) =>
    await anyDb(t)
      .selectFrom('user_coupons')
      .select(['status', 'order_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('prices the chosen coupon, uses it for one order only, and gives it back when the order is cancelled', async () => {
    const couponId = await issue();
    const price = await api.post('/api/admin/orders/price', {
      storeId: w.storeId,
      userId: w.customer,
      items: [{ goodsId: w.noodles, qty: 2 }],
      fulfilment: 'pickup',
      couponId,
    });
    expect(price.status, price.text).toBe(200);
    expect(price.body.data.couponFen).toBe(500);
    const order = await placeOrder(api, w, {
      items: [{ goodsId: w.noodles, qty: 2 }],
      fulfilment: 'pickup',
      address: null,
      couponId,
    });
    expect(order).toMatchObject({ couponFen: 500, couponId, payableFen: 2 * 2800 + 100 - 500 });
    expect(await couponStatus(couponId)).toMatchObject({ status: 'used', order_id: order.id });
    const again = await api.post('/api/admin/orders', {
      storeId: w.storeId,
      userId: w.customer,
      items: [{ goodsId: w.noodles, qty: 2 }],
      fulfilment: 'pickup',
      payMethod: 'cash',
      couponId,
    });
    expect(again.status).toBe(422);
    expect(again.body.data.fields.couponId).toBe('该优惠券已使用');
    expect((await api.post(`/api/admin/orders/${order.id}/cancel`, { reason: '顾客改主意' })).status).toBe(
      200,
    );
    expect(await couponStatus(couponId)).toMatchObject({ status: 'unused', order_id: null });
  });

  it('refuses a coupon below its threshold at ordering, and the preview says why', async () => {
    const couponId = await issue();
    const cart = {
      storeId: w.storeId,
      userId: w.customer,
      items: [{ goodsId: w.tea, sku: '中杯', qty: 1 }],
      fulfilment: 'pickup',
      couponId,
    };
    const preview = await api.post('/api/admin/orders/price', cart);
    expect(preview.body.data.coupon).toMatchObject({ applied: false, reason: 'below_threshold' });
    const refused = await api.post('/api/admin/orders', { ...cart, payMethod: 'cash' });
    expect(refused.status).toBe(422);
    expect(refused.body.data.fields.couponId).toBe(preview.body.data.coupon.message);
    expect(await couponStatus(couponId)).toMatchObject({ status: 'unused' });
  });

  it('fires the 首单 rule when the customer completes a first order', async () => {
    const rule = await api.post('/api/admin/couponRules', {
      name: '首单送券',
      trigger: 'firstOrder',
      templateId: template,
      qty: 1,
    });
    expect(rule.status, rule.text).toBe(200);
    const count = async () =>
      Number(
        (
          await anyDb(t)
            .selectFrom('user_coupons')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('rule_id', '=', rule.body.data.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const order = await placeOrder(api, w, { fulfilment: 'dineIn', address: null });
    for (const step of ['pay', 'accept', 'prepare', 'ready', 'pickedUp'])
      expect(
        (
          await api.post(
            `/api/admin/orders/${order.id}/${step}`,
            step === 'pay' ? { payMethod: 'balance' } : {},
          )
        ).status,
      ).toBe(200);
    expect(await count()).toBe(1);
    const second = await placeOrder(api, w, { fulfilment: 'dineIn', address: null });
    for (const step of ['pay', 'accept', 'prepare', 'ready', 'pickedUp'])
      await api.post(
        `/api/admin/orders/${second.id}/${step}`,
        step === 'pay' ? { payMethod: 'balance' } : {},
      );
    expect(await count()).toBe(1);
  });
});
