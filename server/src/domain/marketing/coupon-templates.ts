/** couponTemplates 发放: an operator gives a coupon to chosen users (core's issue rule, one transaction). */
import { sql } from 'kysely';
import { conflict, invalidInput } from '../../http/envelope.js';
import type { ActionContext, AnyDb } from '../../resources/extensions.js';
import { tryIssueCoupons } from './coupon-issue.js';
import { model } from './rows.js';

/** Users among `ids` that are not live accounts. */
async function missingUsers(trx: AnyDb, ids: readonly number[]): Promise<number[]> {
  const users = model('users');
  const found = await trx
    .selectFrom(users.table)
    .select(sql.ref('id').as('id'))
    .where(sql.ref('id'), 'in', [...ids])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  const live = new Set(found.map((r) => Number((r as { id: unknown }).id)));
  return ids.filter((id) => !live.has(id));
}

/** `alice、bob 等 3 位` for a refusal naming users. */
async function userNames(trx: AnyDb, ids: readonly number[]): Promise<string> {
  const shown = ids.slice(0, 5);
  const users = model('users');
  const rows = await trx
    .selectFrom(users.table)
    .select([sql.ref('id').as('id'), sql.ref('username').as('username')])
    .where(sql.ref('id'), 'in', shown)
    .execute();
  const names = new Map(rows.map((r) => [Number(r.id), String(r.username)]));
  const text = shown.map((id) => names.get(id) ?? `#${id}`).join('、');
  return ids.length > shown.length ? `${text} 等 ${ids.length} 位` : text;
}

export async function issueToUsers(ctx: ActionContext): Promise<undefined> {
  const userIds = [...new Set(ctx.input.userIds as number[])];
  const missing = await missingUsers(ctx.trx, userIds);
  if (missing.length > 0) {
    throw invalidInput({ userIds: `所选的用户不存在：${missing.map((id) => `#${id}`).join('、')}` });
  }
  const result = await tryIssueCoupons(ctx.trx, {
    templateId: ctx.id,
    userIds,
    perUser: 1,
    source: 'manual',
    now: ctx.now,
    dialect: ctx.dialect,
  });
  if (!result.ok) {
    const who = result.userIds ? `（${await userNames(ctx.trx, result.userIds)}）` : '';
    throw conflict(`${result.message}${who}`);
  }
  ctx.note('issuedTo', null, userIds);
  ctx.touched('userCoupons');
  return undefined;
}
