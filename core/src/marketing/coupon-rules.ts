/**
 * Which 发券规则 fire for an event in a user's life. A rule fires when it is enabled, its trigger
 * is the event's, the event falls within its startAt..endAt (either end open when unset; endAt
 * exclusive), and — for 订单满额 — the order's amount reaches its threshold. Several rules may fire
 * for one event (a register rule and a second one for a campaign); each issues its own coupons,
 * and a rule whose coupon cannot be issued (sold out, per-user limit) is skipped by the server.
 *
 * 生日当天 is not an event here: it is a daily timer's business (not built yet).
 */
import { type CouponRuleFacts, type Instant, instantMs } from './types';

export type CouponEvent =
  /** A new account (the users area: an account created). */
  | { kind: 'register'; at: Instant }
  /** The user's first order, as the order domain decides it (completed). */
  | { kind: 'firstOrder'; at: Instant }
  /** An order whose amount may reach 订单满额 rules (the paid amount, in fen). */
  | { kind: 'orderAmount'; amountFen: number; at: Instant }
  /** An invitee became a successful referral (for the inviter). */
  | { kind: 'referral'; at: Instant };

export type CouponEventKind = CouponEvent['kind'];

export function ruleFires(rule: CouponRuleFacts, event: CouponEvent): boolean {
  if (rule.status !== 'enabled' || rule.trigger !== event.kind) return false;
  const at = instantMs(event.at);
  if (at === null) return false;
  const start = instantMs(rule.startAt);
  const end = instantMs(rule.endAt);
  if (start !== null && at < start) return false;
  if (end !== null && at >= end) return false;
  if (event.kind === 'orderAmount') {
    const threshold = rule.thresholdFen ?? 0;
    // A 满额 rule without a threshold is refused by its definition; one met here fires on nothing.
    if (threshold <= 0) return false;
    return event.amountFen >= threshold;
  }
  return true;
}

/** The rules that fire for `event`, in the order given. */
export function rulesFiring<R extends CouponRuleFacts>(rules: readonly R[], event: CouponEvent): R[] {
  return rules.filter((rule) => ruleFires(rule, event));
}

/** A referral campaign (referralCampaigns) as the reward rule reads it. */
export interface ReferralCampaignFacts {
  status: string;
  startAt?: Instant | null;
  endAt?: Instant | null;
}

/** Whether a referral completed at `at` earns the campaign's rewards: enabled, within its period. */
export function referralCampaignActive(campaign: ReferralCampaignFacts, at: Instant): boolean {
  const when = instantMs(at);
  if (campaign.status !== 'enabled' || when === null) return false;
  const start = instantMs(campaign.startAt);
  const end = instantMs(campaign.endAt);
  return (start === null || when >= start) && (end === null || when < end);
}
