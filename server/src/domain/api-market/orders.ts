/**
 * API plans bought and refunded (DOMAIN.md api-market/order), under core's rules
 * (api-market/orders.ts). Buying is one transaction: the order (paid, the plan's price and calls
 * copied onto it), the balance debit through the finance ledger (409 余额不足 rolls all of it
 * back), and the quota it credits. A refund is one transaction too: the order's conditional
 * paid → refunded, the quota's remaining calls taken away by a conditional UPDATE on the very
 * count the refund was priced on (a gateway call spending meanwhile makes the refund fail and
 * be retried, never both spent and refunded), and the credit to the balance. Ledger rows are
 * appended, never edited.
 */
import { formatMoney, getResource, planApiRefund, planPurchase } from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict, invalidInput } from '../../http/envelope.js';
import { appendRow } from '../../resources/actions.js';
import type { ActionHandlerSpec, AnyDb, CreateHandler, WriteContext } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { moveBalance } from '../finance/ledger.js';
import { appendNumbered } from '../orders/numbers.js';

const apiOrders = getResource('apiOrders');
const apiQuotas = getResource('apiQuotas');
const apiPlans = getResource('apiPlans');
const marketApis = getResource('marketApis');

export const ORDER_CREATE_BODY_SCHEMA = {
  type: 'object',
  required: ['userId', 'planId'],
  properties: {
    userId: { type: 'integer', description: '购买的用户（从其余额扣款）' },
    planId: { type: 'integer', description: '套餐（apiPlans 的 id）' },
  },
} as const;

const positiveId = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The plan with its API's name and status, or null. */
export async function planOf(db: AnyDb, planId: number) {
  const plans = modelOf(apiPlans).table;
  const apis = modelOf(marketApis).table;
  const row = await db
    .selectFrom(`${plans} as p`)
    .innerJoin(`${apis} as a`, 'a.id', 'p.api_id')
    .select([
      'p.id as id',
      'p.name as name',
      'p.api_id as apiId',
      'p.calls as calls',
      'p.period_days as periodDays',
      'p.price_fen as priceFen',
      'p.status as status',
      'a.name as apiName',
      'a.status as apiStatus',
    ])
    .where('p.id', '=', planId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    name: String(row.name),
    apiId: Number(row.apiId),
    apiName: String(row.apiName),
    calls: Number(row.calls),
    periodDays: Number(row.periodDays),
    priceFen: Number(row.priceFen),
    status: String(row.status),
    apiStatus: String(row.apiStatus),
  };
}

type Tx = WriteContext & { touched(resource: string): void };

/** Buys `planId` for `userId` in the caller's transaction; answers the paid order. */
export async function buyPlan(ctx: Tx, body: unknown): Promise<WireRow> {
  const raw = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const userId = positiveId(raw.userId);
  const planId = positiveId(raw.planId);
  const missing: Record<string, string> = {};
  if (userId === null) missing.userId = '请选择用户';
  if (planId === null) missing.planId = '请选择套餐';
  if (userId === null || planId === null) throw invalidInput(missing);
  const user = await ctx.trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw invalidInput({ userId: '所选的用户不存在' });
  const plan = await planOf(ctx.trx, planId);
  if (!plan) throw invalidInput({ planId: '所选的套餐不存在' });
  const purchase = planPurchase(plan, ctx.now);
  if (!purchase.ok) throw conflict(purchase.message);

  const order = await appendNumbered(
    ctx.trx,
    apiOrders,
    'orderNo',
    'A',
    {
      userId,
      planId,
      amountFen: purchase.amountFen,
      calls: purchase.calls,
      status: 'paid',
      paidAt: ctx.now,
      refundedFen: 0,
    },
    ctx.now,
  );
  // A free plan moves no money: the ledger takes no zero entries.
  if (purchase.amountFen > 0)
    await moveBalance(ctx, {
      userId,
      changeFen: -purchase.amountFen,
      kind: 'pay',
      refType: 'apiOrders',
      refId: order.id,
      note: `购买 API 套餐「${plan.apiName} · ${plan.name}」（订单 ${order.orderNo}）`,
    });
  await appendRow(
    ctx.trx,
    apiQuotas,
    {
      userId,
      apiId: plan.apiId,
      orderId: order.id,
      remaining: purchase.calls,
      expiresAt: purchase.expiresAt,
    },
    ctx.now,
  );
  ctx.touched(apiQuotas.name);
  return order;
}

export const createOrder: CreateHandler = {
  bodySchema: ORDER_CREATE_BODY_SCHEMA,
  description:
    '为用户购买套餐：在同一事务中创建已支付的订单、从用户余额扣款（记入余额流水）并发放调用额度（次数 = 套餐次数，有效期 = 套餐天数）。余额不足 409，什么也不改变。',
  run: (ctx) => buyPlan(ctx, ctx.body),
};

/** The quota an order credited (the first, should there be several), or null. */
async function quotaOf(trx: AnyDb, orderId: number) {
  const row = await trx
    .selectFrom(modelOf(apiQuotas).table)
    .select(['id', 'remaining', 'expires_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    remaining: Number(row.remaining),
    expiresAt: row.expires_at == null ? null : Number(row.expires_at),
  };
}

/**
 * Takes a quota's remaining calls away — only if it still holds exactly `quota.remaining` (the
 * count the refund was priced on) and has not expired. A gateway call that spent from it in
 * between (committed first, or waited for on PostgreSQL, whose UPDATE re-checks the WHERE on the
 * row it waited for) makes this answer false: the refund is refused, not paid for spent calls.
 */
export async function reclaimQuota(
  trx: AnyDb,
  quota: { id: number; remaining: number },
  now: number,
): Promise<boolean> {
  const taken = await trx
    .updateTable(modelOf(apiQuotas).table)
    .set({ remaining: 0, updated_at: nextUpdatedAt(now) })
    .where('id', '=', quota.id)
    .where('remaining', '=', quota.remaining)
    .where(sql<boolean>`(expires_at is null or expires_at > ${now})`)
    .returning(['id'])
    .executeTakeFirst();
  return taken !== undefined;
}

export const refundOrder: ActionHandlerSpec = {
  async run(ctx) {
    const order = ctx.row;
    const quota = await quotaOf(ctx.trx, order.id);
    // Orders paid before 0017 carry no calls (0): their plan's calls are the best record left.
    const calls =
      Number(order.calls ?? 0) ||
      (order.planId == null ? 0 : ((await planOf(ctx.trx, Number(order.planId)))?.calls ?? 0));
    const decision = planApiRefund(
      {
        status: String(order.status),
        amountFen: Number(order.amountFen ?? 0),
        calls,
        remaining: quota?.remaining ?? null,
        expiresAt: quota?.expiresAt ?? null,
      },
      ctx.now,
    );
    if (!decision.ok || !quota)
      throw conflict(decision.ok ? '订单没有对应的调用额度，不能退款' : decision.message);

    const orders = modelOf(apiOrders).table;
    const refunded = await ctx.trx
      .updateTable(orders)
      .set({
        status: 'refunded',
        refunded_fen: decision.refundFen,
        refunded_at: ctx.now,
        updated_at: nextUpdatedAt(ctx.now),
      })
      .where('id', '=', order.id)
      .where('status', '=', 'paid')
      .returningAll()
      .executeTakeFirst();
    if (!refunded) throw conflict('订单已退款');

    if (!(await reclaimQuota(ctx.trx, quota, ctx.now)))
      throw conflict('调用额度刚被使用或已过期，请刷新后重试');
    ctx.touched(apiQuotas.name);

    if (decision.refundFen > 0)
      await moveBalance(ctx, {
        userId: Number(order.userId),
        changeFen: decision.refundFen,
        kind: 'refund',
        refType: 'apiOrders',
        refId: order.id,
        note: `API 订单 ${order.orderNo} 退款：收回剩余 ${decision.reclaimedCalls} 次`,
      });
    ctx.note('reclaimedCalls', quota.remaining, 0);
    return toWireRow(modelOf(apiOrders), refunded);
  },
  refusal: (row) => {
    const decision = planApiRefund(
      { status: String(row.status), amountFen: 0, calls: 0, remaining: 0, expiresAt: null },
      0, // the state decides before any date does
    );
    return conflict(decision.ok ? '当前状态不能退款' : decision.message);
  },
  message: (row) => `已退款 ${formatMoney(Number(row.refundedFen ?? 0))}`,
};
