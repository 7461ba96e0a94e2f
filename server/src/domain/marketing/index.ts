/**
 * Marketing (DOMAIN.md "OMS"): coupons issued, exchange codes generated, voided and redeemed,
 * coupon rules fired, points and balance adjusted, and its timers (timers.ts: coupons expire).
 * The rules are core's (core/src/marketing); README.md has the decisions. For other areas:
 *
 * - `fireCouponRules(trx, userId, event)` (coupon-rules.ts): register, firstOrder, orderAmount,
 *   referral;
 * - `rewardReferral(trx, inviteeId, at)` (coupon-rules.ts): a referral's rewards, once;
 * - `couponForOrder`, `useCoupon` (order-coupons.ts): a coupon chosen for an order, then used.
 */
import type { DomainArea } from '../area.js';
import { meCouponRoutes } from './me-routes.js';
import { register } from './resource.js';
import { marketingTasks } from './timers.js';

export { fireCouponRules, rewardReferral } from './coupon-rules.js';
export { couponForOrder, useCoupon } from './order-coupons.js';
export { EXPIRE_COUPONS_EVERY_MS, EXPIRE_COUPONS_TASK, expireCoupons } from './timers.js';

export const marketingArea: DomainArea = {
  name: 'marketing',
  register,
  routes: meCouponRoutes,
  tasks: marketingTasks,
};
