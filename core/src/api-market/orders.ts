/**
 * API-market plans, orders and quotas (DOMAIN.md api-market/order): the rules the server runs in
 * its transactions and the admin screen shows before a click.
 *
 * Buying a plan is paid from the user's balance and credits one quota of `plan.calls` that
 * expires `periodDays` later. The refund rule, as a metered market (阿里云 API 市场 prorates
 * resource packs) does it: **pro rata of the unused calls, rounded down to the fen**, and only
 * while the credited quota has not expired — an expired pack has been consumed by time. A pack
 * used up has nothing left to refund. The server takes the quota's remaining calls away with a
 * conditional UPDATE on the very `remaining` it priced, so a gateway call that spends from the
 * quota meanwhile makes the refund fail (retry) instead of being both spent and refunded.
 */
import { DAY_MS } from '../format/date';
import { formatMoney } from '../format/money';

export type ApiDecision<T> = ({ ok: true } & T) | { ok: false; message: string };

/** What is bought: the plan and whether it and its API are on sale. */
export interface PlanForSale {
  name: string;
  priceFen: number;
  calls: number;
  periodDays: number;
  status: string;
  apiStatus: string;
}

export interface Purchase {
  amountFen: number;
  calls: number;
  /** Epoch ms the credited quota expires at. */
  expiresAt: number;
}

/** Whether `plan` can be bought now, and what the order and its quota are. */
export function planPurchase(plan: PlanForSale, now: number): ApiDecision<Purchase> {
  if (plan.status !== 'enabled') return { ok: false, message: `套餐「${plan.name}」已停用，不能购买` };
  if (plan.apiStatus !== 'enabled')
    return { ok: false, message: `套餐「${plan.name}」所属的 API 已停用，不能购买` };
  return {
    ok: true,
    amountFen: plan.priceFen,
    calls: plan.calls,
    expiresAt: now + plan.periodDays * DAY_MS,
  };
}

/** Whether a balance covers a purchase (the ledger refuses the same; the screen says so first). */
export function purchaseShortfall(balanceFen: number, priceFen: number): string | null {
  return balanceFen >= priceFen
    ? null
    : `余额不足：当前余额 ${formatMoney(balanceFen)}，需要 ${formatMoney(priceFen)}`;
}

/** An order and the quota it credited, as read in the refund's transaction. */
export interface RefundableApiOrder {
  status: string;
  amountFen: number;
  /** The calls the order credited (its plan's calls at purchase). */
  calls: number;
  /** The credited quota's remaining calls now; null when the order has no quota. */
  remaining: number | null;
  /** The credited quota's expiry (epoch ms); null means it never expires. */
  expiresAt: number | null;
}

export interface ApiRefund {
  refundFen: number;
  /** The calls taken back: all the quota still holds. */
  reclaimedCalls: number;
}

/** The refund of a paid order under the pro-rata rule above (in fen, rounded down). */
export function planApiRefund(order: RefundableApiOrder, now: number): ApiDecision<ApiRefund> {
  if (order.status === 'refunded') return { ok: false, message: '订单已退款' };
  if (order.status !== 'paid') return { ok: false, message: '只有已支付的订单可以退款' };
  if (order.remaining === null) return { ok: false, message: '订单没有对应的调用额度，不能退款' };
  if (order.expiresAt !== null && order.expiresAt <= now)
    return { ok: false, message: '调用额度已过期，不能退款' };
  const unused = Math.max(0, Math.min(order.remaining, order.calls));
  if (unused === 0) return { ok: false, message: '调用额度已用完，没有可退的金额' };
  const calls = Math.max(1, order.calls);
  return {
    ok: true,
    refundFen: Math.floor((order.amountFen * unused) / calls),
    reclaimedCalls: order.remaining,
  };
}
