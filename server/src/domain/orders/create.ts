/**
 * A counter order (API.md `POST /api/admin/orders`): the cart priced by the server with core's
 * pricing (cart.ts), stored `pending_payment` with every line's shares, the points it spends taken
 * from the customer in the same transaction, and the first line of its timeline. Paying is the
 * machine's `pay` move (moves.ts).
 */
import {
  draftFieldErrors,
  getResource,
  orderCreateProblems,
  orderCreateSchema,
  orderDraftSchema,
  type PriceBreakdown,
} from '@wanxiang/core';
import { invalidInput } from '../../http/envelope.js';
import type { AnyDb } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { modelOf } from '../../resources/storage.js';
import { movePoints } from '../finance/ledger.js';
import { useCoupon } from '../marketing/order-coupons.js';
import { priceCart } from './cart.js';
import { writeHistory } from './history.js';
import { announce, type MoveTx } from './moves.js';
import { appendNumbered } from './numbers.js';

const orders = getResource('orders');

/** API.md's price breakdown (what `POST /api/admin/orders/price` answers). */
export function breakdownOf(priced: PriceBreakdown) {
  return {
    lines: priced.lines.map((l) => ({
      goodsId: l.goodsId,
      sku: l.sku,
      qty: l.qty,
      unitPriceFen: l.unitPriceFen,
      amountFen: l.amountFen,
      discountFen: l.discountFen,
      pointsFen: l.pointsFen,
      payableFen: l.payableFen,
    })),
    goodsFen: priced.goodsFen,
    memberFen: priced.memberFen,
    packingFen: priced.packingFen,
    deliveryFen: priced.deliveryFen,
    discountFen: priced.discountFen,
    couponFen: priced.couponFen,
    pointsFen: priced.pointsFen,
    pointsUsed: priced.pointsUsed,
    payableFen: priced.payableFen,
    reduction: priced.reduction,
    coupon: priced.coupon,
    points: priced.points,
  };
}

export async function previewPrice(db: AnyDb, body: unknown, now: number) {
  const parsed = orderDraftSchema.safeParse(body ?? {});
  if (!parsed.success) throw invalidInput(draftFieldErrors(parsed.error));
  const cart = await priceCart(db, parsed.data, now, { forOrder: false });
  return breakdownOf(cart.priced);
}

export async function createOrder(tx: MoveTx, body: unknown, operatorId: number | null): Promise<WireRow> {
  const parsed = orderCreateSchema.safeParse(body ?? {});
  if (!parsed.success) throw invalidInput(draftFieldErrors(parsed.error));
  const draft = parsed.data;
  const problems = orderCreateProblems(draft);
  if (problems) throw invalidInput(problems);
  const cart = await priceCart(tx.trx, draft, tx.now, { forOrder: true });
  const { priced } = cart;
  const items = cart.lines.map((line, i) => {
    const p = priced.lines[i] as (typeof priced.lines)[number];
    return {
      goodsId: line.goodsId,
      name: line.name,
      sku: line.sku ?? null,
      qty: line.qty,
      unitPriceFen: line.unitPriceFen,
      discountFen: p.discountFen,
      payableFen: p.payableFen,
      pointsFen: p.pointsFen,
      refundedQty: 0,
    };
  });
  const order = await appendNumbered(
    tx.trx,
    orders,
    'orderNo',
    '',
    {
      storeId: draft.storeId,
      userId: draft.userId ?? null,
      items,
      goodsFen: priced.goodsFen,
      memberFen: priced.memberFen,
      packingFen: priced.packingFen,
      deliveryFen: priced.deliveryFen,
      discountFen: priced.discountFen,
      couponFen: priced.couponFen,
      couponId: null,
      pointsUsed: priced.pointsUsed,
      pointsFen: priced.pointsFen,
      pointsRefunded: 0,
      payableFen: priced.payableFen,
      paidFen: 0,
      refundedFen: 0,
      payMethod: draft.payMethod,
      fulfilment: draft.fulfilment,
      address: draft.fulfilment === 'delivery' ? draft.address : null,
      remark: draft.remark || null,
      status: 'pending_payment',
    },
    tx.now,
  );
  if (draft.couponId && draft.userId && priced.couponFen > 0) {
    await useCoupon(tx.trx, {
      userCouponId: draft.couponId,
      userId: draft.userId,
      orderId: order.id,
      now: tx.now,
    });
    await tx.trx
      .updateTable(modelOf(orders).table)
      .set({ coupon_id: draft.couponId })
      .where('id', '=', order.id)
      .execute();
    order.couponId = draft.couponId;
    tx.touched('userCoupons');
  }
  if (priced.pointsUsed > 0 && draft.userId)
    await movePoints(tx, {
      userId: draft.userId,
      change: -priced.pointsUsed,
      reason: 'redeem',
      refId: order.id,
      note: `订单 ${order.orderNo} 积分抵扣`,
    });
  await writeHistory(
    tx.trx,
    [{ orderId: order.id, operatorId, from: null, to: 'pending_payment', note: '下单' }],
    tx.now,
  );
  tx.touched('orderHistory');
  announce(tx, 'created', order, { from: null, move: 'create' });
  return order;
}
