/**
 * 发券规则 firing: `fireCouponRules(trx, userId, event)` issues the coupons of every rule core's
 * `rulesFiring` picks for the event, in the caller's transaction — the users area calls it when
 * an account is created (register), the order domain when a user's first order completes
 * (firstOrder) and when an order's amount may reach 订单满额 rules (orderAmount), the referral
 * reward below for the inviter (referral).
 *
 * A rule whose coupon cannot be issued now (停用, 已发完, 每人限领 reached) is skipped and says
 * why in the answer; it never fails the event that fired it — a sold-out welcome coupon must not
 * stop an account being created.
 */
import {
  type CouponEvent,
  type CouponRuleFacts,
  instantMs,
  type ReferralCampaignFacts,
  referralCampaignActive,
  rulesFiring,
} from '@wanxiang/core';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { ApiError } from '../../http/envelope.js';
import { nextUpdatedAt } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { toWireRow } from '../../resources/storage.js';
import { tryIssueCoupons } from './coupon-issue.js';
import { model, readRow } from './rows.js';

export type FiredRule =
  | { ruleId: number; issued: true; couponIds: number[] }
  | { ruleId: number; issued: false; reason: string; message: string };

export async function fireCouponRules(trx: AnyDb, userId: number, event: CouponEvent): Promise<FiredRule[]> {
  const at = instantMs(event.at);
  if (at === null) throw new RangeError('event.at is not a time');
  const rules = model('couponRules');
  const rows = await trx
    .selectFrom(rules.table)
    .selectAll()
    .where(sql.ref('trigger'), '=', event.kind)
    .where(sql.ref('status'), '=', 'enabled')
    .orderBy(sql.ref('id'))
    .execute();
  const candidates = rows.map((row) => toWireRow(rules, row) as unknown as CouponRuleFacts);
  const dialect = dialectOf(trx);
  const fired: FiredRule[] = [];
  for (const rule of rulesFiring(candidates, event)) {
    const result = await tryIssueCoupons(trx, {
      templateId: rule.templateId,
      userIds: [userId],
      perUser: rule.qty,
      source: 'rule',
      ruleId: rule.id,
      now: at,
      dialect,
    }).catch((error: unknown) => {
      // A rule whose template was deleted issues nothing; it does not fail the event.
      if (error instanceof ApiError) {
        return { ok: false as const, reason: 'missing', message: error.message };
      }
      throw error;
    });
    fired.push(
      result.ok
        ? { ruleId: rule.id, issued: true, couponIds: result.couponIds }
        : { ruleId: rule.id, issued: false, reason: result.reason, message: result.message },
    );
  }
  return fired;
}

export interface ReferralReward {
  referralId: number;
  inviterId: number;
  inviteeId: number;
  /** The coupons given: the campaign's two rewards, then the inviter's referral rules. */
  inviterCoupons: number[];
  inviteeCoupons: number[];
  rules: FiredRule[];
}

/**
 * A referral becomes successful (the order domain calls this when the invitee's first order
 * completes): once, the campaign's 邀请人奖励 goes to the inviter and 被邀请人奖励 to the invitee
 * (when the campaign is enabled and the moment is within its period), the inviter's 邀请成功
 * rules fire, and `rewardedAt` is stamped by a conditional UPDATE — a second call, or a
 * concurrent one, finds it stamped and gives nothing. Null when there is nothing to reward.
 */
export async function rewardReferral(
  trx: AnyDb,
  inviteeId: number,
  at: number,
): Promise<ReferralReward | null> {
  const referrals = model('referrals');
  const claimed = (await trx
    .updateTable(referrals.table)
    .set({ rewarded_at: at, updated_at: nextUpdatedAt(at) })
    .where(sql.ref('invitee_id'), '=', inviteeId)
    .where(sql.ref('rewarded_at'), 'is', null)
    .returningAll()
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!claimed) return null;
  const referral = toWireRow(referrals, claimed);
  const inviterId = Number(referral.inviterId);
  const reward: ReferralReward = {
    referralId: referral.id,
    inviterId,
    inviteeId,
    inviterCoupons: [],
    inviteeCoupons: [],
    rules: [],
  };
  const campaignId = referral.campaignId as number | null;
  const campaign = campaignId === null ? undefined : await readRow(trx, 'referralCampaigns', campaignId);
  if (campaign && referralCampaignActive(campaign as unknown as ReferralCampaignFacts, at)) {
    const dialect = dialectOf(trx);
    const give = async (templateId: unknown, userId: number) => {
      if (typeof templateId !== 'number') return [];
      const result = await tryIssueCoupons(trx, {
        templateId,
        userIds: [userId],
        perUser: 1,
        source: 'referral',
        now: at,
        dialect,
      });
      return result.ok ? result.couponIds : [];
    };
    reward.inviterCoupons = await give(campaign.inviterRewardId, inviterId);
    reward.inviteeCoupons = await give(campaign.inviteeRewardId, inviteeId);
  }
  reward.rules = await fireCouponRules(trx, inviterId, { kind: 'referral', at });
  return reward;
}
