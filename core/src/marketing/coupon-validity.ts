/**
 * When an issued coupon may be used: from when, and until when.
 *
 * - 固定日期 (`fixed`): the template's validFrom .. validTo, whenever it was issued.
 * - 领取后生效 (`relative`): from the moment of issue for `validDays` China days, the day of issue
 *   counting as the first — issued on 5月1日 15:00 with 7 days, usable until 5月7日 24:00 China
 *   time (the expiry instant is 5月8日 00:00, exclusive). Decision: whole China days, as 美团 and
 *   饿了么 show "有效期至 5月7日 23:59", not 7 × 24 hours from the minute of issue.
 *
 * China Standard Time is UTC+8 all year (format/date.ts), so a China day is arithmetic.
 */
import { chinaMidnightOf, DAY_MS } from '../format/date';
import { type CouponTemplateFacts, type Instant, instantMs } from './types';

export interface CouponWindow {
  /** Usable from (inclusive); null: from issue. */
  startsAt: number | null;
  /** Usable until (exclusive); null: never expires (a template without an end). */
  expiresAt: number | null;
}

/** The window of a coupon of `template` issued at `issuedAt`. */
export function couponWindow(
  template: Pick<CouponTemplateFacts, 'validity' | 'validFrom' | 'validTo' | 'validDays'>,
  issuedAt: Instant,
): CouponWindow {
  const issued = instantMs(issuedAt);
  if (issued === null) throw new RangeError('issuedAt is not a time');
  if (template.validity === 'fixed') {
    return { startsAt: instantMs(template.validFrom), expiresAt: instantMs(template.validTo) };
  }
  const days = template.validDays ?? 0;
  if (!Number.isInteger(days) || days < 1) return { startsAt: issued, expiresAt: null };
  return { startsAt: issued, expiresAt: chinaMidnightOf(issued) + days * DAY_MS };
}

/** The expiry instant of a coupon issued at `issuedAt` (userCoupons.expiresAt), or null. */
export function couponExpiresAt(
  template: Pick<CouponTemplateFacts, 'validity' | 'validFrom' | 'validTo' | 'validDays'>,
  issuedAt: Instant,
): number | null {
  return couponWindow(template, issuedAt).expiresAt;
}
