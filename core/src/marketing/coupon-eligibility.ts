/**
 * Whether a coupon a user holds may be used on a cart, and if so the `CouponInput` that
 * `priceOrder` takes. This is everything about the coupon itself; whether the goods reach its
 * threshold, and whether the store's 满减 lets a coupon stack, is pricing's decision
 * (pricing/coupon.ts), made on the priced cart.
 *
 * Checked in this order, the first that holds is the reason:
 *   not_owner → used → expired (status, or its expiry passed) → disabled (template 停用) →
 *   not_started (固定日期 before validFrom) → wrong_store → item_not_in_cart → incomplete (a
 *   template that lacks what its kind needs: the definition's rules refuse such a save, so this
 *   only meets rows written around them).
 */
import type { CouponInput } from '../pricing/types';
import { couponWindow } from './coupon-validity';
import { type CouponTemplateFacts, type Instant, instantMs, type UserCouponFacts } from './types';

export type CouponIneligibility =
  | 'not_owner'
  | 'used'
  | 'expired'
  | 'disabled'
  | 'not_started'
  | 'wrong_store'
  | 'item_not_in_cart'
  | 'incomplete';

export type CouponEligibility =
  | { ok: true; coupon: CouponInput }
  | { ok: false; reason: CouponIneligibility; message: string };

export interface CartFacts {
  storeId: number;
  /** The goods in the cart (ids; repeats are fine). */
  goodsIds: readonly number[];
  now: Instant;
  /** The user asking; when given, a coupon of another user is refused. */
  userId?: number;
}

const MESSAGES: Record<CouponIneligibility, string> = {
  not_owner: '这不是您的优惠券',
  used: '该优惠券已使用',
  expired: '该优惠券已过期',
  disabled: '该优惠券已停用',
  not_started: '该优惠券未到生效时间',
  wrong_store: '该优惠券不适用于本门店',
  item_not_in_cart: '购物车中没有该优惠券指定的商品',
  incomplete: '该优惠券设置不完整，暂不能使用',
};

/** The pricing input of a template, or null when it lacks what its kind needs. */
export function couponInputOf(
  template: Pick<CouponTemplateFacts, 'kind' | 'valueFen' | 'rate' | 'goodsId' | 'thresholdFen'>,
): CouponInput | null {
  const thresholdFen = template.thresholdFen ?? 0;
  const positive = (n: number | null | undefined): n is number => typeof n === 'number' && n > 0;
  switch (template.kind) {
    case 'cash':
      return positive(template.valueFen) ? { kind: 'cash', valueFen: template.valueFen, thresholdFen } : null;
    case 'discount':
      return positive(template.rate) && template.rate < 100
        ? { kind: 'discount', rate: template.rate, thresholdFen }
        : null;
    case 'item':
      return positive(template.valueFen) && positive(template.goodsId)
        ? { kind: 'item', goodsId: template.goodsId, valueFen: template.valueFen, thresholdFen }
        : null;
    default:
      return null;
  }
}

export function couponEligibility(
  userCoupon: UserCouponFacts,
  template: CouponTemplateFacts,
  cart: CartFacts,
): CouponEligibility {
  const refuse = (reason: CouponIneligibility): CouponEligibility => ({
    ok: false,
    reason,
    message: MESSAGES[reason],
  });
  const now = instantMs(cart.now);
  if (now === null) throw new RangeError('now is not a time');
  if (cart.userId !== undefined && userCoupon.userId != null && userCoupon.userId !== cart.userId) {
    return refuse('not_owner');
  }
  if (userCoupon.status === 'used') return refuse('used');
  const expiresAt = instantMs(userCoupon.expiresAt);
  if (userCoupon.status !== 'unused' || (expiresAt !== null && expiresAt <= now)) return refuse('expired');
  if (template.status !== 'enabled') return refuse('disabled');
  const issuedAt = userCoupon.issuedAt ?? now;
  const starts = couponWindow(template, issuedAt).startsAt;
  if (template.validity === 'fixed' && starts !== null && now < starts) return refuse('not_started');
  const stores = template.storeIds ?? [];
  if (stores.length > 0 && !stores.includes(cart.storeId)) return refuse('wrong_store');
  if (template.kind === 'item' && template.goodsId != null && !cart.goodsIds.includes(template.goodsId)) {
    return refuse('item_not_in_cart');
  }
  const coupon = couponInputOf(template);
  return coupon ? { ok: true, coupon } : refuse('incomplete');
}
