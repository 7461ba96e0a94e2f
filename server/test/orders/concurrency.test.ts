/**
 * Money under concurrency, on SQLite and PostgreSQL (the bar): many payments against one
 * balance and refunds of one order racing each other. Requests are fired together and awaited
 * together; the assertions are about what the ledger and the balance say afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { anyDb, balanceOf, type OrderWorld, orderWorld, placeOrder } from './fixture.js';

describe.each(DB_KINDS)('money under concurrency on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t, { stock: 100_000 });
  });
  afterAll(async () => t?.close());

  const ledger = (user: number) =>
    anyDb(t)
      .selectFrom('balance_ledger')
      .select(['change_fen', 'balance_after_fen', 'kind', 'ref_id'])
      .where('user_id', '=', user)
      .where('card_id', 'is', null)
      .orderBy('id')
      .execute();

  it('200 concurrent payments against one balance: final = start − successful payments, nothing lost or doubled, never negative', async () => {
    const one = { items: [{ goodsId: w.noodles, qty: 1 }], fulfilment: 'pickup', address: null };
    const orders = [];
    for (let i = 0; i < 200; i++) orders.push(await placeOrder(api, w, one));
    const price = orders[0]?.payableFen as number;
    expect(orders.every((o) => o.payableFen === price)).toBe(true);
    const before = await balanceOf(t, w.customer);
    // Enough for 120 of them and a little over.
    const start = before + 120 * price + 37;
    await t.app.db.transaction().execute(async (trx) => {
      const { moveBalance } = await import('../../src/domain/finance/ledger.js');
      await moveBalance(
        { trx, now: t.clock.now() },
        { userId: w.customer, changeFen: start - before, kind: 'recharge' },
      );
    });
    const entriesBefore = (await ledger(w.customer)).length;

    const answers = await Promise.all(
      orders.map((o) => api.post(`/api/admin/orders/${o.id}/pay`, { payMethod: 'balance' })),
    );
    const paid = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(paid.length).toBe(120);
    expect(refused.every((a) => a.status === 409 && /^余额不足/.test(a.body.message))).toBe(true);
    expect(await balanceOf(t, w.customer)).toBe(start - paid.length * price);
    expect(await balanceOf(t, w.customer)).toBe(37);

    const entries = (await ledger(w.customer)).slice(entriesBefore);
    expect(entries.length).toBe(paid.length);
    expect(entries.every((e) => Number(e.change_fen) === -price && e.kind === 'pay')).toBe(true);
    // Each paid order debited exactly once; each entry's balance follows the one before.
    const paidIds = new Set(paid.map((a) => a.body.data.id));
    expect(new Set(entries.map((e) => Number(e.ref_id)))).toEqual(paidIds);
    let running = start;
    for (const e of entries) {
      running += Number(e.change_fen);
      expect(Number(e.balance_after_fen)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const statuses = await anyDb(t)
      .selectFrom('orders')
      .select(['id', 'status'])
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    expect(statuses.filter((s) => s.status === 'paid').length).toBe(120);
  });

  it('concurrent refunds of one order never return more than was paid', async () => {
    const b0 = await balanceOf(t, w.customer);
    await t.app.db.transaction().execute(async (trx) => {
      const { moveBalance } = await import('../../src/domain/finance/ledger.js');
      await moveBalance(
        { trx, now: t.clock.now() },
        { userId: w.customer, changeFen: 50_000, kind: 'recharge' },
      );
    });
    const order = await placeOrder(api, w, { fulfilment: 'pickup', address: null });
    expect((await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' })).status).toBe(200);
    const afterPay = await balanceOf(t, w.customer);
    expect(afterPay).toBe(b0 + 50_000 - order.payableFen);
    // Two full refunds and eight partial ones of 40 % each, all at once.
    const amount = Math.floor(order.payableFen * 0.4);
    const answers = await Promise.all([
      api.post(`/api/admin/orders/${order.id}/refund`, { reason: '并发整单退款 1' }),
      ...Array.from({ length: 8 }, (_, i) =>
        api.post(`/api/admin/orders/${order.id}/refund`, { reason: `并发部分退款 ${i}`, amountFen: amount }),
      ),
      api.post(`/api/admin/orders/${order.id}/refund`, { reason: '并发整单退款 2' }),
    ]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    // The losers are refused: 409 (the order changed under them) or 422 (more than is left now).
    expect(answers.filter((a) => ![200, 409, 422].includes(a.status)).map((a) => a.text)).toEqual([]);
    const refunded = ok.reduce((s, a) => s + (a.body.data.amountFen as number), 0);
    expect(refunded).toBeLessThanOrEqual(order.payableFen);
    const row = await anyDb(t)
      .selectFrom('orders')
      .select(['refunded_fen', 'paid_fen'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.refunded_fen)).toBe(refunded);
    expect(await balanceOf(t, w.customer)).toBe(afterPay + refunded);
    const records = await anyDb(t)
      .selectFrom('order_refunds')
      .select(['amount_fen'])
      .where('order_id', '=', order.id)
      .execute();
    expect(records.reduce((s, r) => s + Number(r.amount_fen), 0)).toBe(refunded);
  });
});
