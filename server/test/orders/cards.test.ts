/** Prepaid cards: sold with their bonus, paid with, refunded to, topped up, refused when frozen. */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { anyDb, type OrderWorld, orderWorld, placeOrder } from './fixture.js';

describe.each(DB_KINDS)('prepaid cards on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let product: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t);
    [product] = (await t.app.resources.insertRows(getResource('cardProducts'), [
      { name: '200 元储值卡', faceValueFen: 20_000, priceFen: 20_000, bonusFen: 2_000, status: 'onSale' },
    ])) as [number];
  });
  afterAll(async () => t?.close());

  const card = async (id: number) => (await api.get(`/api/admin/prepaidCards/${id}`)).body.data;
  const entries = (cardId: number) =>
    anyDb(t)
      .selectFrom('balance_ledger')
      .select(['change_fen', 'balance_after_fen', 'kind'])
      .where('card_id', '=', cardId)
      .orderBy('id')
      .execute();

  it('sells a card with its bonus, pays an order with it, refunds a line back to it', async () => {
    const sold = await api.post(`/api/admin/cardProducts/${product}/sell`, {
      userId: w.customer,
      payMethod: 'cash',
    });
    expect(sold.status, sold.text).toBe(200);
    const cardId = sold.body.data.id as number;
    expect(sold.body.data).toMatchObject({ balanceFen: 22_000, status: 'active', userId: w.customer });
    expect(sold.body.data.cardNo).toMatch(/^8\d{15}$/);

    const order = await placeOrder(api, w, { payMethod: 'card', fulfilment: 'pickup', address: null });
    const noCard = await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'card' });
    expect(noCard.status).toBe(422);
    const paid = await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'card', cardId });
    expect(paid.status, paid.text).toBe(200);
    expect((await card(cardId)).balanceFen).toBe(22_000 - order.payableFen);
    const refund = await api.post(`/api/admin/orders/${order.id}/refund`, {
      reason: '少做一杯',
      lines: [{ index: 1, qty: 1 }],
    });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.data.payMethod).toBe('card');
    expect((await card(cardId)).balanceFen).toBe(22_000 - order.payableFen + refund.body.data.amountFen);
    const kinds = (await entries(cardId)).map((e) => [e.kind, Number(e.change_fen)]);
    expect(kinds).toEqual([
      ['card', 22_000],
      ['pay', -order.payableFen],
      ['refund', refund.body.data.amountFen],
    ]);
  });

  it('refuses a card for an order without a member, when made and when paid, and moves nothing', async () => {
    const sold = await api.post(`/api/admin/cardProducts/${product}/sell`, {
      userId: w.customer,
      payMethod: 'cash',
    });
    const cardId = sold.body.data.id as number;
    const walkIn = { userId: null, fulfilment: 'pickup', address: null };
    const made = await api.post('/api/admin/orders', {
      storeId: w.storeId,
      items: [{ goodsId: w.noodles, qty: 1 }],
      payMethod: 'card',
      ...walkIn,
    });
    expect(made.status).toBe(422);
    expect(made.body.data.fields.userId).toBe('储值卡支付须选择会员顾客');

    const order = await placeOrder(api, w, { payMethod: 'cash', ...walkIn });
    const paid = await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'card', cardId });
    expect(paid.status).toBe(422);
    expect(paid.body.data.fields.payMethod).toBe('储值卡支付须是会员顾客的订单');
    expect((await api.get(`/api/admin/orders/${order.id}`)).body.data.status).toBe('pending_payment');
    expect((await card(cardId)).balanceFen).toBe(22_000);
  });

  it('refuses a frozen card and tops one up', async () => {
    const sold = await api.post(`/api/admin/cardProducts/${product}/sell`, {
      userId: w.customer,
      payMethod: 'cash',
    });
    const cardId = sold.body.data.id as number;
    expect((await api.post(`/api/admin/prepaidCards/${cardId}/freeze`, {})).status).toBe(200);
    const order = await placeOrder(api, w, { payMethod: 'card', fulfilment: 'pickup', address: null });
    const refused = await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'card', cardId });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('已冻结');
    await api.post(`/api/admin/prepaidCards/${cardId}/unfreeze`, {});
    const topped = await api.post(`/api/admin/prepaidCards/${cardId}/recharge`, {
      amountFen: 5_000,
      payMethod: 'cash',
    });
    expect(topped.status, topped.text).toBe(200);
    expect((await card(cardId)).balanceFen).toBe(27_000);
  });
});
