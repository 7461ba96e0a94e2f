/**
 * What the coupon rules read, as plain data: the fields of a couponTemplates row, of a userCoupons
 * row and of a couponRules row as the wire carries them (core/src/resources/definitions/
 * marketing.ts). Instants are ISO strings or epoch ms; absent and null mean "not set".
 */

/** An instant as the wire or the database gives it. */
export type Instant = string | number | Date;

export type CouponTemplateStatus = 'enabled' | 'disabled';

/** A couponTemplates row (the fields the rules read). */
export interface CouponTemplateFacts {
  id?: number;
  name?: string;
  kind: 'cash' | 'discount' | 'item';
  valueFen?: number | null;
  rate?: number | null;
  goodsId?: number | null;
  thresholdFen?: number | null;
  /** `fixed`: validFrom..validTo; `relative`: validDays China days from the day of issue. */
  validity: 'fixed' | 'relative';
  validFrom?: Instant | null;
  validTo?: Instant | null;
  validDays?: number | null;
  /** 0 or absent: no limit. */
  totalQty?: number | null;
  issuedQty?: number | null;
  perUserLimit?: number | null;
  /** Empty or absent: every store. */
  storeIds?: readonly number[] | null;
  status: CouponTemplateStatus | string;
}

/** A userCoupons row (the fields the rules read). */
export interface UserCouponFacts {
  userId?: number | null;
  templateId?: number | null;
  status: 'unused' | 'used' | 'expired' | string;
  issuedAt?: Instant | null;
  expiresAt?: Instant | null;
}

export type CouponTrigger = 'register' | 'firstOrder' | 'orderAmount' | 'birthday' | 'referral';

/** A couponRules row (the fields the rules read). */
export interface CouponRuleFacts {
  id: number;
  trigger: CouponTrigger | string;
  thresholdFen?: number | null;
  templateId: number;
  qty: number;
  startAt?: Instant | null;
  endAt?: Instant | null;
  status: CouponTemplateStatus | string;
}

/** epoch ms of an instant; null when absent or not a time. */
export function instantMs(value: Instant | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
