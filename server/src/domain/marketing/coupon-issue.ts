/**
 * Issuing coupons of a template to users — the one path every coupon takes into a wallet: an
 * operator's 发放, a rule firing, an exchange code redeemed, a referral reward.
 *
 * Core decides (marketing/coupon-issue.ts `issueDecision`); this runs it where it cannot race:
 * the template row is locked first (PostgreSQL: SELECT … FOR UPDATE; SQLite runs one write
 * transaction at a time), so what each user already holds is counted after any concurrent issue
 * of the same template has committed; then the counter moves by a conditional UPDATE that can
 * never pass 发行总量 (the lock makes it hold anyway; the condition says so in the database), and
 * the userCoupons rows are written with their expiry — all in the caller's transaction.
 */
import { type CouponTemplateFacts, couponExpiresAt, type IssueDecision, issueDecision } from '@wanxiang/core';
import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { conflict, notFound } from '../../http/envelope.js';
import { nextUpdatedAt } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { insertWireRows, model, readRow } from './rows.js';

export type CouponSource = 'rule' | 'manual' | 'exchange' | 'referral';

export interface IssueOrder {
  templateId: number;
  /** Each user gets `perUser` coupons; a user listed twice is counted once. */
  userIds: readonly number[];
  perUser: number;
  source: CouponSource;
  /** The rule that issued them (source `rule`). */
  ruleId?: number | null;
  now: number;
  dialect: DialectName;
}

export type IssueResult =
  | { ok: true; couponIds: number[] }
  | (Extract<IssueDecision, { ok: false }> & { couponIds?: undefined });

/** Issues as core's rule allows, or answers its refusal (nothing written). */
export async function tryIssueCoupons(trx: AnyDb, order: IssueOrder): Promise<IssueResult> {
  const userIds = [...new Set(order.userIds)];
  const template = await readRow(trx, 'couponTemplates', order.templateId, {
    lock: true,
    dialect: order.dialect,
  });
  if (!template) throw notFound('优惠券不存在');
  const facts = template as unknown as CouponTemplateFacts;

  const coupons = model('userCoupons');
  const heldRows =
    userIds.length === 0
      ? []
      : await trx
          .selectFrom(coupons.table)
          .select([sql.ref('user_id').as('userId'), sql<number>`count(*)`.as('held')])
          .where(sql.ref('template_id'), '=', order.templateId)
          .where(sql.ref('user_id'), 'in', userIds)
          .groupBy(sql.ref('user_id'))
          .execute();
  const held = new Map(heldRows.map((r) => [Number(r.userId), Number(r.held)]));
  const decision = issueDecision(facts, {
    perUser: order.perUser,
    users: userIds.map((userId) => ({ userId, held: held.get(userId) ?? 0 })),
    now: order.now,
  });
  if (!decision.ok) return decision;

  const count = order.perUser * userIds.length;
  if (count === 0) return { ok: true, couponIds: [] };
  const templates = model('couponTemplates');
  const moved = await trx
    .updateTable(templates.table)
    .set({ issued_qty: sql`coalesce(issued_qty, 0) + ${count}`, updated_at: nextUpdatedAt(order.now) })
    .where(sql.ref('id'), '=', order.templateId)
    .where(sql<boolean>`(coalesce(total_qty, 0) = 0 or coalesce(issued_qty, 0) + ${count} <= total_qty)`)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return { ok: false, reason: 'sold_out', message: '该优惠券已发完' };

  const expiresAt = couponExpiresAt(facts, order.now);
  const rows = userIds.flatMap((userId) =>
    Array.from({ length: order.perUser }, () => ({
      userId,
      templateId: order.templateId,
      source: order.source,
      ruleId: order.ruleId ?? null,
      status: 'unused',
      issuedAt: order.now,
      expiresAt,
    })),
  );
  return { ok: true, couponIds: await insertWireRows(trx, 'userCoupons', rows, order.now) };
}

/** Issues, or refuses with core's reason as a 409 (the caller's transaction rolls back). */
export async function issueCoupons(trx: AnyDb, order: IssueOrder): Promise<number[]> {
  const result = await tryIssueCoupons(trx, order);
  if (!result.ok) throw conflict(result.message);
  return result.couponIds;
}
