/**
 * 兑换码: a batch generated for a template (collection action), a batch voided, and a code
 * redeemed by a signed-in user. Redemption is one conditional UPDATE … WHERE status = 'unused':
 * of any number of concurrent redemptions of one code exactly one changes the row, the others
 * find it used (409 该兑换码已被使用); the coupon is issued in the same transaction through the
 * one issue path, and if that refuses (已发完, 每人限领) the code stays unused.
 */
import {
  type CouponTemplateFacts,
  exchangeBatchDecision,
  generateExchangeCodes,
  readExchangeCode,
} from '@wanxiang/core';
import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { conflict, invalidInput, notFound } from '../../http/envelope.js';
import { nextUpdatedAt } from '../../resources/actions.js';
import type { AnyDb, CollectionActionContext } from '../../resources/extensions.js';
import { issueCoupons } from './coupon-issue.js';
import { model, readRow } from './rows.js';

/** Rounds of regenerating codes that collided with stored ones (59 bits each: never, in practice). */
const MAX_ROUNDS = 5;

export async function generateBatch(ctx: CollectionActionContext) {
  const batch = String(ctx.input.batch);
  const templateId = Number(ctx.input.templateId);
  const count = Number(ctx.input.count);
  const template = await readRow(ctx.trx, 'couponTemplates', templateId, {
    lock: true,
    dialect: ctx.dialect,
  });
  if (!template) throw invalidInput({ templateId: '所选的优惠券不存在' });
  const codes = model('exchangeCodes');
  const unused = await ctx.trx
    .selectFrom(codes.table)
    .select(sql<number>`count(*)`.as('n'))
    .where(sql.ref('template_id'), '=', templateId)
    .where(sql.ref('status'), '=', 'unused')
    .executeTakeFirstOrThrow();
  const decision = exchangeBatchDecision(template as unknown as CouponTemplateFacts, {
    count,
    unusedCodes: Number(unused.n),
    now: ctx.now,
  });
  if (!decision.ok) throw conflict(decision.message);

  let written = 0;
  for (let round = 0; written < count && round < MAX_ROUNDS; round++) {
    const fresh = generateExchangeCodes(count - written);
    for (let start = 0; start < fresh.length; start += 1000) {
      const rows = fresh.slice(start, start + 1000).map((code) => ({
        batch,
        code,
        template_id: templateId,
        status: 'unused',
        created_at: ctx.now,
        updated_at: ctx.now,
      }));
      // A code that is already stored (a collision) is skipped and made again in the next round.
      const inserted = await ctx.trx
        .insertInto(codes.table)
        .values(rows)
        .onConflict((oc) => oc.column('code').doNothing())
        .returning(sql.ref('id').as('id'))
        .execute();
      written += inserted.length;
    }
  }
  if (written < count)
    throw new Error(`exchange codes: ${count - written} codes collided ${MAX_ROUNDS} times`);
  return { batch, templateId, count: written };
}

export async function voidBatch(ctx: CollectionActionContext) {
  const batch = String(ctx.input.batch);
  const codes = model('exchangeCodes');
  const changed = await ctx.trx
    .updateTable(codes.table)
    .set({ status: 'void', updated_at: nextUpdatedAt(ctx.now) })
    .where(sql.ref('batch'), '=', batch)
    .where(sql.ref('status'), '=', 'unused')
    .executeTakeFirst();
  const voided = Number(changed.numUpdatedRows);
  if (voided === 0) {
    const any = await ctx.trx
      .selectFrom(codes.table)
      .select(sql.ref('id').as('id'))
      .where(sql.ref('batch'), '=', batch)
      .limit(1)
      .executeTakeFirst();
    if (!any) throw invalidInput({ batch: `没有名为“${batch}”的批次` });
    throw conflict(`批次“${batch}”没有未兑换的兑换码`);
  }
  return { batch, voided };
}

export interface Redemption {
  code: string;
  userCouponId: number;
  templateId: number;
}

/** Redeems `input` (what the user typed) for `userId` in `trx`; refuses with a Chinese reason. */
export async function redeemCode(
  trx: AnyDb,
  { input, userId, now, dialect }: { input: unknown; userId: number; now: number; dialect: DialectName },
): Promise<Redemption> {
  const read = readExchangeCode(input);
  if (!read.ok) throw invalidInput({ code: read.message }, read.message);
  const codes = model('exchangeCodes');
  const won = (await trx
    .updateTable(codes.table)
    .set({ status: 'used', redeemed_by: userId, redeemed_at: now, updated_at: nextUpdatedAt(now) })
    .where(sql.ref('code'), '=', read.code)
    .where(sql.ref('status'), '=', 'unused')
    .returning([sql.ref('id').as('id'), sql.ref('template_id').as('templateId')])
    .executeTakeFirst()) as { id: unknown; templateId: unknown } | undefined;
  if (!won) {
    const row = (await trx
      .selectFrom(codes.table)
      .select(sql.ref('status').as('status'))
      .where(sql.ref('code'), '=', read.code)
      .executeTakeFirst()) as { status: string } | undefined;
    if (!row) throw notFound('兑换码不存在，请检查后重新输入');
    throw conflict(row.status === 'void' ? '该兑换码已作废' : '该兑换码已被使用');
  }
  const templateId = Number(won.templateId);
  const [userCouponId] = await issueCoupons(trx, {
    templateId,
    userIds: [userId],
    perUser: 1,
    source: 'exchange',
    now,
    dialect,
  });
  return { code: read.code, userCouponId: userCouponId as number, templateId };
}
