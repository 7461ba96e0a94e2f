/**
 * A coupon in an order's life, for the order domain (in its transactions):
 *
 * - `couponForOrder`: may this user use this coupon on this cart? core's `couponEligibility`
 *   over the stored rows; when it may, the `CouponInput` to hand `priceOrder` (which then decides
 *   the threshold and stacking on the priced cart).
 * - `useCoupon`: marks it used by the order — a conditional UPDATE, so one coupon pays one order
 *   even when two orders are placed at once (the second: 409 该优惠券已使用).
 * Giving a coupon back when an order is cancelled is the order machine's effect (orders area,
 * moves.ts `returnCoupon`).
 */
import {
  type CouponEligibility,
  type CouponTemplateFacts,
  couponEligibility,
  type UserCouponFacts,
} from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict } from '../../http/envelope.js';
import { nextUpdatedAt } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { model, readRow } from './rows.js';

export async function couponForOrder(
  trx: AnyDb,
  cart: { userCouponId: number; userId: number; storeId: number; goodsIds: readonly number[]; now: number },
): Promise<CouponEligibility> {
  const held = await readRow(trx, 'userCoupons', cart.userCouponId);
  if (!held || held.userId !== cart.userId)
    return { ok: false, reason: 'not_owner', message: '这不是您的优惠券' };
  const template = await readRow(trx, 'couponTemplates', Number(held.templateId));
  if (!template) return { ok: false, reason: 'disabled', message: '该优惠券已停用' };
  return couponEligibility(
    held as unknown as UserCouponFacts,
    template as unknown as CouponTemplateFacts,
    cart,
  );
}

export async function useCoupon(
  trx: AnyDb,
  use: { userCouponId: number; userId: number; orderId: number; now: number },
): Promise<void> {
  const coupons = model('userCoupons');
  const changed = await trx
    .updateTable(coupons.table)
    .set({ status: 'used', used_at: use.now, order_id: use.orderId, updated_at: nextUpdatedAt(use.now) })
    .where(sql.ref('id'), '=', use.userCouponId)
    .where(sql.ref('user_id'), '=', use.userId)
    .where(sql.ref('status'), '=', 'unused')
    .where(sql<boolean>`(expires_at is null or expires_at > ${use.now})`)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw conflict('该优惠券已使用或已过期');
}
