/**
 * 自动接单 (stores.autoAccept): a store that accepts by itself has its orders accepted by the
 * system in the payment's transaction — by balance, prepaid card or cash — with the accept's
 * timeline row (系统), its delivery record and its receipt on the store's auto-print printer; a
 * store without it, or not open, leaves the order paid; and an accept refused all the same is
 * undone alone, the payment standing.
 */
import { getResource } from '@wanxiang/core';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveOrder } from '../../src/domain/orders/moves.js';
import { conflict } from '../../src/http/envelope.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type FakePrinter, startPrinter } from '../printing/listener.js';
import { type Api, adminApi } from '../resources/helpers.js';
import {
  addAutoPrinter,
  anyDb,
  balanceOf,
  type OrderWorld,
  orderWorld,
  placeOrder,
  waitPrinted,
} from './fixture.js';

const PRINTING = { connectTimeoutMs: 2000, writeTimeoutMs: 2000, attempts: 2, retryDelayMs: 0 };

interface HistoryRow {
  from: string | null;
  to: string;
  operatorId: number | null;
  operator: string | null;
  note: string | null;
}

describe.each(DB_KINDS)('自动接单 on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  /** A store with 自动接单 on, and one without; each with a printer that prints on acceptance. */
  let auto: OrderWorld;
  let manual: OrderWorld;
  let autoPrinter: FakePrinter;
  let manualPrinter: FakePrinter;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { printing: PRINTING } });
    api = await adminApi(t);
    auto = await orderWorld(t, { balanceFen: 200_000 });
    manual = await orderWorld(t);
    const on = await api.patch(`/api/admin/stores/${auto.storeId}`, { autoAccept: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.data.autoAccept).toBe(true);
    autoPrinter = await startPrinter('ack');
    manualPrinter = await startPrinter('ack');
    for (const [w, printer] of [
      [auto, autoPrinter],
      [manual, manualPrinter],
    ] as const)
      await addAutoPrinter(api, w.storeId, printer.port);
  });
  afterAll(async () => {
    await autoPrinter?.close();
    await manualPrinter?.close();
    await t?.close();
  });

  const move = (id: number, name: string, body: unknown = {}) =>
    api.post(`/api/admin/orders/${id}/${name}`, body);
  const history = async (id: number) =>
    (await api.get(`/api/admin/orders/${id}/history`)).body.data as HistoryRow[];
  const steps = async (id: number) => (await history(id)).map((h) => `${h.from ?? '-'}→${h.to}`);
  const jobsOf = async (orderId: number) =>
    (await api.get(`/api/admin/printJobs?orderId=${orderId}`)).body.data.results as {
      id: number;
      status: string;
      operatorId: number | null;
    }[];
  const deliveryOf = (orderId: number) =>
    anyDb(t).selectFrom('deliveries').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  it('accepts an order paid by balance at once, as the system: timeline, delivery, receipt', async () => {
    const before = await balanceOf(t, auto.customer);
    const order = await placeOrder(api, auto, { remark: '自动接单' });
    const paid = await move(order.id, 'pay', { payMethod: 'balance' });
    expect(paid.status, paid.text).toBe(200);
    // The payment's answer is the order as the transaction left it: accepted, never paid.
    expect(paid.body.data).toMatchObject({ status: 'accepted', paidFen: order.payableFen });
    expect(paid.body.data.paidAt).toBeTruthy();
    expect(paid.body.data.acceptedAt).toBeTruthy();
    expect((await api.get(`/api/admin/orders/${order.id}`)).body.data.status).toBe('accepted');
    expect(await balanceOf(t, auto.customer)).toBe(before - order.payableFen);

    const rows = await history(order.id);
    expect(rows.map((h) => `${h.from ?? '-'}→${h.to}`)).toEqual([
      '-→pending_payment',
      'pending_payment→paid',
      'paid→accepted',
    ]);
    expect(rows[1]?.operatorId).not.toBeNull();
    expect(rows[2]).toMatchObject({ operatorId: null, operator: '系统', note: '门店自动接单' });

    // The accept's effects, as a manual 接单's: the delivery record waits for a runner …
    expect(await deliveryOf(order.id)).toMatchObject({ status: 'waiting' });
    // … and the receipt is printed on the store's auto-print printer, by nobody (系统).
    const [bytes] = await autoPrinter.received(1);
    expect(iconv.decode(bytes as Buffer, 'gbk')).toContain(order.orderNo);
    const jobs = await jobsOf(order.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.operatorId ?? null).toBeNull();
    await waitPrinted(api, jobs[0]?.id as number);

    // Nothing is left for the staff to accept; the machine goes on from accepted.
    const again = await move(order.id, 'accept');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('订单已接单，不能接单');
    expect((await move(order.id, 'prepare')).body.data.status).toBe('preparing');
  });

  it('accepts by itself whatever the payment: prepaid card, cash', async () => {
    const [product] = (await t.app.resources.insertRows(getResource('cardProducts'), [
      { name: '100 元储值卡', faceValueFen: 10_000, priceFen: 10_000, bonusFen: 0, status: 'onSale' },
    ])) as [number];
    const sold = await api.post(`/api/admin/cardProducts/${product}/sell`, {
      userId: auto.customer,
      payMethod: 'cash',
    });
    expect(sold.status, sold.text).toBe(200);
    const byCard = await placeOrder(api, auto, { payMethod: 'card', fulfilment: 'pickup', address: null });
    const card = await move(byCard.id, 'pay', { payMethod: 'card', cardId: sold.body.data.id });
    expect(card.status, card.text).toBe(200);
    expect(card.body.data).toMatchObject({ status: 'accepted', payMethod: 'card' });

    const byCash = await placeOrder(api, auto, { payMethod: 'cash', fulfilment: 'dineIn', address: null });
    const cash = await move(byCash.id, 'pay', { payMethod: 'cash' });
    expect(cash.status, cash.text).toBe(200);
    expect(cash.body.data).toMatchObject({ status: 'accepted', payMethod: 'cash' });

    for (const order of [byCard, byCash]) {
      expect(await steps(order.id)).toEqual(['-→pending_payment', 'pending_payment→paid', 'paid→accepted']);
      expect((await history(order.id)).at(-1)).toMatchObject({ operator: '系统', note: '门店自动接单' });
      // Not delivery orders: no delivery record, but the receipt all the same.
      expect(await deliveryOf(order.id)).toBeUndefined();
      expect(await jobsOf(order.id)).toHaveLength(1);
    }
  });

  it('leaves the order paid for a store without 自动接单: no accept row, no receipt', async () => {
    const order = await placeOrder(api, manual, { payMethod: 'cash' });
    const paid = await move(order.id, 'pay', { payMethod: 'cash' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data.status).toBe('paid');
    expect(paid.body.data.acceptedAt ?? null).toBeNull();
    expect(await steps(order.id)).toEqual(['-→pending_payment', 'pending_payment→paid']);
    expect(await deliveryOf(order.id)).toBeUndefined();
    expect(await jobsOf(order.id)).toHaveLength(0);
    expect(manualPrinter.connections()).toBe(0);
    // The staff accept it by hand, as before.
    expect((await move(order.id, 'accept')).body.data.status).toBe('accepted');
  });

  it('leaves the order paid when the store with 自动接单 is not open (paused after the order)', async () => {
    const order = await placeOrder(api, auto, { payMethod: 'cash', fulfilment: 'pickup', address: null });
    const paused = await api.post(`/api/admin/stores/${auto.storeId}/pause`, {});
    expect(paused.status, paused.text).toBe(200);
    try {
      const paid = await move(order.id, 'pay', { payMethod: 'cash' });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.data.status).toBe('paid');
      expect(await steps(order.id)).toEqual(['-→pending_payment', 'pending_payment→paid']);
      expect(await jobsOf(order.id)).toHaveLength(0);
    } finally {
      expect((await api.post(`/api/admin/stores/${auto.storeId}/open`, {})).status).toBe(200);
    }
  });

  it('undoes an accept refused all the same (an effect says no) alone: the payment stands', async () => {
    const before = await balanceOf(t, auto.customer);
    const order = await placeOrder(api, auto);
    let tried = 0;
    // The move as the area runs it, with a receipt printing that refuses after the delivery
    // record was written: everything of the accept goes back to the savepoint, nothing more.
    const paid = await t.app.resources.writeRow(
      getResource('orders'),
      order.id,
      'pay',
      { user: null, ip: null },
      (ctx) =>
        moveOrder(
          ctx,
          {
            printReceipt: () => ({
              queries: [],
              async settle() {
                tried++;
                throw conflict('打印机忙');
              },
            }),
          },
          order.id,
          'pay',
          { actor: 'merchant', userId: null },
          { payMethod: 'balance' },
        ),
    );
    expect(tried).toBe(1);
    expect(paid).toMatchObject({ status: 'paid', paidFen: order.payableFen });
    expect((await api.get(`/api/admin/orders/${order.id}`)).body.data).toMatchObject({
      status: 'paid',
      acceptedAt: null,
    });
    expect(await balanceOf(t, auto.customer)).toBe(before - order.payableFen);
    expect(await steps(order.id)).toEqual(['-→pending_payment', 'pending_payment→paid']);
    expect(await deliveryOf(order.id)).toBeUndefined();
    expect(await jobsOf(order.id)).toHaveLength(0);
    // The transaction went on after the rollback to the savepoint: the staff can accept it.
    expect((await move(order.id, 'accept')).body.data.status).toBe('accepted');
  });
});
