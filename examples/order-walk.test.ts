/**
 * The order walk (order-walk.ts) as a developer's unit test: the pricing function and the order
 * machine from the published SDK, checked against each other with no server.
 */
import { decideOrderMove, ORDER_MOVES, planRefund } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { walkAnOrder } from './order-walk';

describe('an order from the SDK alone', () => {
  it('prices, walks to completed, and refunds one unit of a line exactly', () => {
    const lines: string[] = [];
    const { priced, finalStatus, refusals, refund } = walkAnOrder((l) => lines.push(l));
    // 2×28 + 18 = 74; 95 折 → −3.70; 满60减12 on 70.30; ¥5 coupon (70.30 − 12 ≥ 40); 300 points.
    expect(priced.goodsFen).toBe(7400);
    expect(priced.memberFen).toBe(370);
    expect(priced.discountFen).toBe(1200);
    expect(priced.couponFen).toBe(500);
    expect(priced.pointsFen).toBe(300);
    expect(priced.payableFen).toBe(7400 - 370 - 1200 - 500 - 300 + 100 + 500);
    expect(finalStatus).toBe('completed');
    expect(refusals).toEqual(['订单待支付，不能接单']);
    expect(refund.ok && refund.amountFen).toBe(Math.floor((priced.lines[0]?.payableFen as number) / 2));
    expect(lines.at(-1)).toMatch(/^退一碗面：退款 ¥\d+\.\d{2}，退还 \d+ 积分（部分退款）$/);
  });

  it('refunding both bowls one at a time returns the line exactly', () => {
    const { priced } = walkAnOrder(() => {});
    const order = {
      status: 'completed',
      paidFen: priced.payableFen,
      refundedFen: 0,
      pointsUsed: priced.pointsUsed,
      pointsRefunded: 0,
      items: priced.lines.map((l) => ({ ...l, refundedQty: 0 })),
    };
    const first = planRefund(order, { lines: [{ index: 0, qty: 1 }] });
    if (!first.ok) throw new Error(first.message);
    const second = planRefund(
      {
        ...order,
        refundedFen: first.amountFen,
        items: order.items.map((l, i) => (i === 0 ? { ...l, refundedQty: 1 } : l)),
      },
      { lines: [{ index: 0, qty: 1 }] },
    );
    if (!second.ok) throw new Error(second.message);
    expect(first.amountFen + second.amountFen).toBe(priced.lines[0]?.payableFen);
  });

  it('lets no one but the system expire an order, and nobody leave a final status', () => {
    for (const actor of ['customer', 'merchant', 'runner'] as const)
      expect(decideOrderMove({ status: 'pending_payment', fulfilment: 'pickup' }, 'expire', actor).ok).toBe(
        false,
      );
    for (const move of ORDER_MOVES)
      expect(
        decideOrderMove({ status: 'cancelled', fulfilment: 'pickup' }, move.name, move.by[0] as never).ok,
      ).toBe(false);
  });
});
