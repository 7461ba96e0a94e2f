/**
 * Whether coupons of a template may be issued now: to one user or to many at once (an operator's
 * 发放, a rule firing, an exchange code redeemed). Checked in this order, the first that holds is
 * the reason:
 *   1. the template is switched off (停用) → disabled;
 *   2. a 固定日期 template whose end has passed → expired (nobody could use it);
 *   3. fewer left of its 发行总量 than asked for → sold_out (0 = unlimited);
 *   4. a user would hold more than 每人限领 → user_limit. "Hold" counts every coupon of the
 *      template the user was ever given, used or expired too: 每人限领 is how many one person may
 *      receive, as 美团/有赞 count it, so using one does not make room for another.
 * The server runs this on the template row as read under its lock and changes the counter with a
 * conditional UPDATE, so concurrent issues never pass the total.
 */
import { type CouponTemplateFacts, type Instant, instantMs } from './types';

export type IssueRefusal = 'disabled' | 'expired' | 'sold_out' | 'user_limit';

export type IssueDecision =
  | { ok: true }
  | {
      ok: false;
      reason: IssueRefusal;
      message: string;
      /** For user_limit: the users who would pass it. */
      userIds?: number[];
    };

/** How many are left of the template's total, or null when it has none (unlimited). */
export function remainingQty(template: Pick<CouponTemplateFacts, 'totalQty' | 'issuedQty'>): number | null {
  const total = template.totalQty ?? 0;
  if (total <= 0) return null;
  return Math.max(0, total - (template.issuedQty ?? 0));
}

export interface IssueRequest {
  /** Coupons each user is to get (a rule's qty; 1 for an operator's issue or an exchange code). */
  perUser: number;
  /** The users, each with how many coupons of this template they were given before. */
  users: readonly { userId: number; held: number }[];
  now: Instant;
}

export function issueDecision(
  template: Pick<
    CouponTemplateFacts,
    'status' | 'validity' | 'validTo' | 'totalQty' | 'issuedQty' | 'perUserLimit'
  >,
  request: IssueRequest,
): IssueDecision {
  const now = instantMs(request.now) ?? 0;
  if (template.status !== 'enabled')
    return { ok: false, reason: 'disabled', message: '该优惠券已停用，不能发放' };
  const end = template.validity === 'fixed' ? instantMs(template.validTo) : null;
  if (end !== null && end <= now)
    return { ok: false, reason: 'expired', message: '该优惠券已过有效期，不能发放' };
  const wanted = request.perUser * request.users.length;
  const left = remainingQty(template);
  if (left !== null && wanted > left) {
    return {
      ok: false,
      reason: 'sold_out',
      message: left === 0 ? '该优惠券已发完' : `该优惠券只剩 ${left} 张，不够发放 ${wanted} 张`,
    };
  }
  const limit = template.perUserLimit ?? 1;
  const over = request.users.filter((u) => u.held + request.perUser > limit).map((u) => u.userId);
  if (over.length > 0) {
    return {
      ok: false,
      reason: 'user_limit',
      message: `每人限领 ${limit} 张，${over.length === 1 ? '该用户' : `其中 ${over.length} 位用户`}已领到上限`,
      userIds: over,
    };
  }
  return { ok: true };
}

/**
 * Whether a batch of `count` exchange codes may be generated for a template. Each code is a
 * coupon promised: decision, the unused codes of the template count against what is left of its
 * 发行总量, so no code is printed that could only ever answer 已发完. Redeeming one issues the
 * coupon through `issueDecision` as any issue (每人限领 applies then).
 */
export function exchangeBatchDecision(
  template: Pick<CouponTemplateFacts, 'status' | 'validity' | 'validTo' | 'totalQty' | 'issuedQty'>,
  request: { count: number; unusedCodes: number; now: Instant },
): IssueDecision {
  const now = instantMs(request.now) ?? 0;
  if (template.status !== 'enabled') {
    return { ok: false, reason: 'disabled', message: '该优惠券已停用，不能生成兑换码' };
  }
  const end = template.validity === 'fixed' ? instantMs(template.validTo) : null;
  if (end !== null && end <= now) {
    return { ok: false, reason: 'expired', message: '该优惠券已过有效期，不能生成兑换码' };
  }
  const left = remainingQty(template);
  if (left !== null && request.unusedCodes + request.count > left) {
    const room = Math.max(0, left - request.unusedCodes);
    return {
      ok: false,
      reason: 'sold_out',
      message: `该优惠券只剩 ${left} 张，已有 ${request.unusedCodes} 个兑换码未兑换，最多还能生成 ${room} 个`,
    };
  }
  return { ok: true };
}
