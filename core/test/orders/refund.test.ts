import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRefund, priceOrder, type RefundableOrder } from '../../src/index';

const order = (over: Partial<RefundableOrder> = {}): RefundableOrder => ({
  status: 'completed',
  paidFen: 3000,
  refundedFen: 0,
  pointsUsed: 0,
  pointsRefunded: 0,
  items: [
    { goodsId: 1, name: '牛肉面', qty: 3, payableFen: 1000, pointsFen: 0 },
    { goodsId: 2, name: '可乐', qty: 1, payableFen: 500, pointsFen: 0 },
  ],
  ...over,
});

describe('planRefund', () => {
  it('refunds the whole remainder when no amount or lines are given', () => {
    expect(planRefund(order({ refundedFen: 700, pointsUsed: 50, pointsRefunded: 10 }), {})).toEqual({
      ok: true,
      kind: 'full',
      amountFen: 2300,
      points: 40,
      lines: [],
    });
  });

  it('refunds units of a line by their exact share, the units adding up to the line', () => {
    const first = planRefund(order(), { lines: [{ index: 0, qty: 1 }] });
    expect(first).toMatchObject({ ok: true, kind: 'partial', amountFen: 333 });
    const rest = planRefund(order({ items: [{ goodsId: 1, qty: 3, payableFen: 1000, refundedQty: 1 }] }), {
      lines: [{ index: 0, qty: 2 }],
    });
    expect(rest).toMatchObject({ ok: true, amountFen: 667 });
  });

  it('refuses more units than are left, an unknown line, and more money than is left', () => {
    expect(planRefund(order(), { lines: [{ index: 1, qty: 2 }] })).toMatchObject({
      ok: false,
      message: '可乐最多还可退 1 件',
    });
    expect(planRefund(order(), { lines: [{ index: 5, qty: 1 }] })).toMatchObject({
      ok: false,
      message: '第 6 行商品不存在',
    });
    expect(planRefund(order({ refundedFen: 2900 }), { amountFen: 200 })).toMatchObject({
      ok: false,
      field: 'amountFen',
      message: '退款金额不能超过可退金额 ¥1.00',
    });
    expect(planRefund(order({ refundedFen: 3000 }), {})).toMatchObject({
      ok: false,
      message: '订单已全额退款',
    });
  });

  it('refuses unpaid and cancelled orders', () => {
    expect(planRefund(order({ status: 'pending_payment' }), {})).toMatchObject({
      ok: false,
      message: '订单待支付，不能退款',
    });
    expect(planRefund(order({ status: 'cancelled' }), {})).toMatchObject({
      ok: false,
      message: '订单已取消，不能退款',
    });
  });

  // Price a random cart, then refund every unit of every line one at a time in a random order
  // and the remainder at the end: the money returned is exactly what was paid, the points
  // exactly what was spent, and no step ever returns more than is left.
  it('returns exactly what was paid when everything is refunded, unit by unit (fast-check)', () => {
    const line = fc.record({
      goodsId: fc.integer({ min: 1, max: 5 }),
      qty: fc.integer({ min: 1, max: 6 }),
      unitPriceFen: fc.integer({ min: 1, max: 5000 }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 60, max: 100 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (lines, rate, points, tier, seed) => {
          const priced = priceOrder({
            lines,
            packingFen: 200,
            deliveryFen: 500,
            memberDiscountRate: rate,
            activity: tier
              ? { tiers: [{ thresholdFen: 1000 * tier, reduceFen: 100 * tier }], stackableWithCoupon: true }
              : null,
            coupon: { kind: 'cash', valueFen: 300, thresholdFen: 0 },
            points: { spend: points, maxSharePercent: 50 },
          });
          const state: RefundableOrder = {
            status: 'completed',
            paidFen: priced.payableFen,
            refundedFen: 0,
            pointsUsed: priced.pointsUsed,
            pointsRefunded: 0,
            items: priced.lines.map((l) => ({ ...l, refundedQty: 0 })),
          };
          const units = state.items.flatMap((l, index) => Array.from({ length: l.qty }, () => index));
          let s = seed;
          for (let i = units.length - 1; i > 0; i--) {
            s = (s * 1103515245 + 12345) % 2 ** 31;
            const j = s % (i + 1);
            [units[i], units[j]] = [units[j] as number, units[i] as number];
          }
          let lineMoney = 0;
          for (const index of units) {
            const plan = planRefund(state, { lines: [{ index, qty: 1 }] });
            if (!plan.ok) throw new Error(plan.message);
            lineMoney += plan.amountFen;
            state.refundedFen += plan.amountFen;
            state.pointsRefunded += plan.points;
            const item = state.items[index] as { refundedQty: number };
            item.refundedQty += 1;
          }
          expect(lineMoney).toBe(priced.lines.reduce((sum, l) => sum + l.payableFen, 0));
          expect(state.pointsRefunded).toBe(priced.pointsUsed);
          const last = planRefund(state, {});
          const fees = 700;
          if (last.ok) {
            expect(last.amountFen).toBe(fees);
            expect(last.points).toBe(0);
          } else expect(fees).toBe(0);
        },
      ),
    );
  });
});
