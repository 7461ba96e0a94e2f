/**
 * Buying an API plan: one transaction pays from the balance ledger, writes the paid order and
 * credits a quota — or, short of money, changes nothing. Refunding: pro rata of the unused calls
 * (core's rule), the quota taken back and the balance credited in one transaction; of two
 * refunds at once one applies; ledger rows are only ever appended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reclaimQuota } from '../../src/domain/api-market/orders.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { balanceOf, createApi, createPlan, credit, customer } from './helpers.js';

const DAY = 86_400_000;

describe.each(DB_KINDS)('API plans and orders on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let apiId: number;
  let planId: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await adminApi(t);
    apiId = await createApi(admin);
    planId = await createPlan(admin, apiId);
  });
  afterAll(async () => t?.close());

  const ordersOf = async (userId: number) =>
    (await admin.get(`/api/admin/apiOrders?userId=${userId}&sort=id`)).body.data.results as Record<
      string,
      unknown
    >[];
  const quotasOf = async (userId: number) =>
    (await admin.get(`/api/admin/apiQuotas?userId=${userId}&sort=id`)).body.data.results as Record<
      string,
      unknown
    >[];
  const ledgerOf = async (userId: number) =>
    (await admin.get(`/api/admin/balanceLedger?userId=${userId}&sort=id`)).body.data.results as Record<
      string,
      unknown
    >[];
  const remainingOf = async (quotaId: number) =>
    Number(
      (
        (await t.app.db
          .selectFrom('api_quotas' as never)
          .select('remaining' as never)
          .where('id' as never, '=', quotaId as never)
          .executeTakeFirstOrThrow()) as { remaining: number }
      ).remaining,
    );
  // Written past the engine as the gateway does (the admin list caches may not see it at once).
  const setRemaining = (quotaId: number, remaining: number) =>
    t.app.db
      .updateTable('api_quotas' as never)
      .set({ remaining } as never)
      .where('id' as never, '=', quotaId as never)
      .execute();

  it('refuses a purchase the balance does not cover, in Chinese, changing nothing', async () => {
    const poor = await customer(t, 'poor');
    await credit(admin, poor.id, 5000);
    const ledgerBefore = await ledgerOf(poor.id);
    const res = await admin.post('/api/admin/apiOrders', { userId: poor.id, planId });
    expect([res.status, res.body.message]).toEqual([409, '余额不足：当前余额 ¥50.00，需要 ¥99.00']);
    expect(await balanceOf(admin, poor.id)).toBe(5000);
    expect(await ordersOf(poor.id)).toEqual([]);
    expect(await quotasOf(poor.id)).toEqual([]);
    expect(await ledgerOf(poor.id)).toEqual(ledgerBefore);
    const self = await poor.api.post('/api/me/apiOrders', { planId });
    expect(self.status).toBe(409);
    expect(await ordersOf(poor.id)).toEqual([]);
  });

  it('refuses bad input with 4xx and Chinese messages', async () => {
    const someone = await customer(t, 'badbuy');
    const cases: [unknown, number, Record<string, string> | null][] = [
      [{}, 422, { userId: '请选择用户', planId: '请选择套餐' }],
      [{ userId: someone.id, planId: 'x' }, 422, { planId: '请选择套餐' }],
      [{ userId: 999_999, planId }, 422, { userId: '所选的用户不存在' }],
      [{ userId: someone.id, planId: 999_999 }, 422, { planId: '所选的套餐不存在' }],
      ['text', 415, null],
    ];
    for (const [body, status, fields] of cases) {
      const res = await admin.post('/api/admin/apiOrders', body);
      expect(res.status, res.text).toBe(status);
      if (fields) expect(res.body.data.fields).toEqual(fields);
    }
    const disabled = await createPlan(admin, apiId, { name: '停售', status: 'disabled' });
    const res = await admin.post('/api/admin/apiOrders', { userId: someone.id, planId: disabled });
    expect([res.status, res.body.message]).toEqual([409, '套餐「停售」已停用，不能购买']);
  });

  it('buys a plan in one transaction: paid order, ledger debit, quota credited', async () => {
    const buyer = await customer(t, 'buyer');
    await credit(admin, buyer.id, 20_000);
    const res = await admin.post('/api/admin/apiOrders', { userId: buyer.id, planId });
    expect(res.status, res.text).toBe(200);
    const order = res.body.data;
    expect(order).toMatchObject({
      userId: buyer.id,
      planId,
      amountFen: 9900,
      calls: 10_000,
      status: 'paid',
    });
    expect(order.orderNo).toMatch(/^A\d{14}\d{8}$/);
    expect(await balanceOf(admin, buyer.id)).toBe(10_100);
    const ledger = await ledgerOf(buyer.id);
    expect(ledger.at(-1)).toMatchObject({
      kind: 'pay',
      changeFen: -9900,
      balanceAfterFen: 10_100,
      refType: 'apiOrders',
      refId: order.id,
    });
    const [quota] = await quotasOf(buyer.id);
    expect(quota).toMatchObject({ apiId, orderId: order.id, remaining: 10_000 });
    expect(Date.parse(String(quota?.expiresAt))).toBe(t.clock.now() + 30 * DAY);

    // The user buys for themselves too, and sees their quotas.
    const self = await buyer.api.post('/api/me/apiOrders', { planId, userId: 1 });
    expect(self.status, self.text).toBe(200);
    expect(self.body.data.userId).toBe(buyer.id);
    expect((await buyer.api.get('/api/me/apiQuotas')).body.data).toHaveLength(2);
    expect((await buyer.api.get('/api/me/apiOrders')).body.data).toHaveLength(2);
    expect((await buyer.api.get('/api/me/apiPlans')).body.data.map((p: { id: number }) => p.id)).toContain(
      planId,
    );
    expect(await balanceOf(admin, buyer.id)).toBe(200);
  });

  it('refunds the unused share of the calls, takes the quota back and appends to the ledger', async () => {
    const user = await customer(t, 'refunder');
    await credit(admin, user.id, 9900);
    const order = (await admin.post('/api/admin/apiOrders', { userId: user.id, planId })).body.data;
    const [quota] = await quotasOf(user.id);
    await setRemaining(Number(quota?.id), 2500); // 7 500 calls spent through the gateway
    const ledgerBefore = await ledgerOf(user.id);

    const res = await admin.post(`/api/admin/apiOrders/${order.id}/refund`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('已退款 ¥24.75');
    expect(res.body.data).toMatchObject({ status: 'refunded', refundedFen: 2475 });
    expect(await balanceOf(admin, user.id)).toBe(2475);
    expect((await quotasOf(user.id))[0]?.remaining).toBe(0);
    const ledger = await ledgerOf(user.id);
    // Appended only: the earlier entries are exactly as they were.
    expect(ledger.slice(0, ledgerBefore.length)).toEqual(ledgerBefore);
    expect(ledger.slice(ledgerBefore.length)).toMatchObject([
      { kind: 'refund', changeFen: 2475, balanceAfterFen: 2475, refType: 'apiOrders', refId: order.id },
    ]);
    const again = await admin.post(`/api/admin/apiOrders/${order.id}/refund`);
    expect([again.status, again.body.message]).toEqual([409, '订单已退款']);
  });

  it('refuses to refund an expired or used-up quota', async () => {
    const user = await customer(t, 'late');
    await credit(admin, user.id, 19_800);
    const first = (await admin.post('/api/admin/apiOrders', { userId: user.id, planId })).body.data;
    const second = (await admin.post('/api/admin/apiOrders', { userId: user.id, planId })).body.data;
    const quotas = await quotasOf(user.id);
    await setRemaining(Number(quotas[1]?.id), 0);
    const usedUp = await admin.post(`/api/admin/apiOrders/${second.id}/refund`);
    expect([usedUp.status, usedUp.body.message]).toEqual([409, '调用额度已用完，没有可退的金额']);
    t.clock.advance(30 * DAY);
    admin = await adminApi(t); // the session expired with the month
    const expired = await admin.post(`/api/admin/apiOrders/${first.id}/refund`);
    expect([expired.status, expired.body.message]).toEqual([409, '调用额度已过期，不能退款']);
    expect(await balanceOf(admin, user.id)).toBe(0);
    expect((await ordersOf(user.id)).map((o) => o.status)).toEqual(['paid', 'paid']);
  });

  it('prorates an order paid before its calls were recorded on its plan’s calls', async () => {
    const user = await customer(t, 'legacy');
    await credit(admin, user.id, 9900);
    const order = (await admin.post('/api/admin/apiOrders', { userId: user.id, planId })).body.data;
    await t.app.db
      .updateTable('api_orders' as never)
      .set({ calls: 0 } as never)
      .where('id' as never, '=', order.id as never)
      .execute();
    const [quota] = await quotasOf(user.id);
    await setRemaining(Number(quota?.id), 5000);
    const res = await admin.post(`/api/admin/apiOrders/${order.id}/refund`);
    expect([res.status, res.body.data?.refundedFen]).toEqual([200, 4950]);
  });

  it('applies one of two concurrent refunds of one order', async () => {
    const user = await customer(t, 'twice');
    await credit(admin, user.id, 9900);
    const order = (await admin.post('/api/admin/apiOrders', { userId: user.id, planId })).body.data;
    const answers = await Promise.all([
      admin.post(`/api/admin/apiOrders/${order.id}/refund`),
      admin.post(`/api/admin/apiOrders/${order.id}/refund`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(admin, user.id)).toBe(9900);
    const refunds = (await ledgerOf(user.id)).filter((e) => e.kind === 'refund');
    expect(refunds).toHaveLength(1);
  });

  it('takes a quota back only at the count it was priced on, and only before it expires', async () => {
    const user = await customer(t, 'racer');
    await credit(admin, user.id, 9900);
    await admin.post('/api/admin/apiOrders', { userId: user.id, planId });
    const [quota] = await quotasOf(user.id);
    const priced = { id: Number(quota?.id), remaining: 10_000 };
    // A gateway call spends one between the refund's read and its UPDATE.
    await setRemaining(priced.id, 9999);
    expect(await reclaimQuota(t.app.db as never, priced, t.clock.now())).toBe(false);
    expect(await remainingOf(priced.id)).toBe(9999);
    const expiresAt = Date.parse(String(quota?.expiresAt));
    expect(await reclaimQuota(t.app.db as never, { ...priced, remaining: 9999 }, expiresAt)).toBe(false);
    expect(await reclaimQuota(t.app.db as never, { ...priced, remaining: 9999 }, expiresAt - 1)).toBe(true);
    expect(await remainingOf(priced.id)).toBe(0);
  });
});
