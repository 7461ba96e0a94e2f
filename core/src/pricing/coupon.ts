/**
 * The one coupon of an order: whether it applies and how much it takes off. Checked in this order,
 * the first that holds is the reason given:
 *   1. a 满减 applies to the order and its activity is not stackable with coupons → not_stackable.
 *      Decision: an activity whose lowest tier the goods do not reach gives the order no 满减, so
 *      it does not block the coupon (the order has no 满减 to stack with);
 *   2. an item coupon whose goods are not in the cart → item_not_in_cart;
 *   3. the goods after member discount and 满减 are below the coupon's threshold → below_threshold
 *      (DOMAIN.md: a coupon's threshold is checked after 满减);
 *   4. the goods it would discount already cost 0 → nothing_to_discount.
 * Amounts: 代金券 its value, 折扣券 what its rate takes off the goods left (rates.ts rounding),
 * 单品券 its value off the lines of its goods; never more than the goods it applies to.
 */
import { formatMoney } from '../format/money';
import { discountAtRate, rateText } from './rates';
import type { CouponInput, CouponOutcome, CouponRefusal } from './types';

export interface CouponContext {
  /** A 满减 reduction applies to this order. */
  reduced: boolean;
  /** The activity's stackableWithCoupon (irrelevant when nothing is reduced). */
  stackable: boolean;
  /** Goods after member discount and 满减 (what the threshold is checked against). */
  goodsLeftFen: number;
  /** For an item coupon: whether its goods are in the cart, and what their lines have left. */
  itemInCart: boolean;
  itemLeftFen: number;
}

export function couponOutcome(coupon: CouponInput, ctx: CouponContext): CouponOutcome {
  const kind = coupon.kind;
  const threshold = coupon.thresholdFen ?? 0;
  const refuse = (reason: CouponRefusal, message: string): CouponOutcome => ({
    applied: false,
    kind,
    reason,
    message,
  });
  if (ctx.reduced && !ctx.stackable) return refuse('not_stackable', '本单已享满减，该满减活动不与优惠券同享');
  if (coupon.kind === 'item' && !ctx.itemInCart) {
    return refuse('item_not_in_cart', '单品券指定的商品不在购物车中');
  }
  if (ctx.goodsLeftFen < threshold) {
    return refuse(
      'below_threshold',
      `${ctx.reduced ? '满减后' : ''}商品金额 ${formatMoney(ctx.goodsLeftFen)} 未达到优惠券门槛 ${formatMoney(threshold)}`,
    );
  }
  const base = coupon.kind === 'item' ? ctx.itemLeftFen : ctx.goodsLeftFen;
  if (base === 0) return refuse('nothing_to_discount', '没有可用优惠券抵扣的商品金额');
  let amountFen: number;
  let message: string;
  if (coupon.kind === 'cash') {
    amountFen = Math.min(coupon.valueFen, base);
    message = `代金券减 ${formatMoney(amountFen)}`;
  } else if (coupon.kind === 'discount') {
    amountFen = discountAtRate(base, coupon.rate);
    message = `折扣券 ${rateText(coupon.rate)}，减 ${formatMoney(amountFen)}`;
  } else {
    amountFen = Math.min(coupon.valueFen, base);
    message = `单品券减 ${formatMoney(amountFen)}`;
  }
  return { applied: true, kind, amountFen, message };
}
