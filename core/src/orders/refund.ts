/**
 * Refunds (DOMAIN.md: records of their own, from paid onwards, never more than was paid). Pure:
 * what a refund request comes to on this order, or why it is refused. The server applies the
 * plan with a conditional update (`refunded + amount <= paid`), so two refunds at once can never
 * return more than was paid either.
 *
 * A refund is asked for as
 * - the whole remainder (`{}`): everything paid and not yet refunded, and every point not yet
 *   returned — what a cancellation refunds too;
 * - an amount (`{amountFen}`): money only, e.g. a goodwill refund for a late delivery;
 * - lines (`{lines: [{index, qty}]}`): units of the order's lines. Each line carries its share of
 *   every discount (pricing spreads them pro rata), so refunding k of its n units returns the
 *   cumulative share ⌊payable·(r+k)/n⌋ − ⌊payable·r/n⌋ (r units refunded before): exact, and the
 *   units of a line always add up to the line's payable; its points likewise.
 */
import { formatMoney } from '../format/money';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatus } from './moves';

/** An order line as the order keeps it (items), with what pricing gave it. */
export interface RefundableLine {
  goodsId: number;
  name?: string;
  sku?: string | null;
  qty: number;
  /** The line's money after every discount (pricing's line payableFen). */
  payableFen?: number;
  /** The line's points, in fen (= points). */
  pointsFen?: number;
  /** Units refunded by earlier line refunds. */
  refundedQty?: number;
}

export interface RefundableOrder {
  status: string;
  paidFen: number;
  refundedFen: number;
  /** Points spent on the order, and those already given back. */
  pointsUsed: number;
  pointsRefunded: number;
  items: readonly RefundableLine[];
}

export type RefundRequest =
  | { amountFen?: undefined; lines?: undefined }
  | { amountFen: number; lines?: undefined }
  | { lines: readonly { index: number; qty: number }[]; amountFen?: undefined };

export interface RefundLinePlan {
  index: number;
  goodsId: number;
  qty: number;
  amountFen: number;
  points: number;
}

export type RefundPlan =
  | {
      ok: true;
      /** full when it leaves nothing more to refund. */
      kind: 'full' | 'partial';
      amountFen: number;
      /** Points going back to the customer. */
      points: number;
      lines: RefundLinePlan[];
    }
  | { ok: false; field?: string; message: string };

/** The statuses an order may be refunded in: paid and every later one except cancelled. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => s !== 'pending_payment' && s !== 'cancelled',
);

/** ⌊total·k/n⌋ with integers only (total·k stays far below 2^53 for any order). */
const cumulative = (total: number, k: number, n: number) => Math.floor((total * k) / n);

export function planRefund(order: RefundableOrder, request: RefundRequest): RefundPlan {
  if (!REFUNDABLE_STATUSES.includes(order.status as OrderStatus)) {
    const label = ORDER_STATUS_LABELS[order.status as OrderStatus] ?? order.status;
    return { ok: false, message: `订单${label}，不能退款` };
  }
  const left = order.paidFen - order.refundedFen;
  const pointsLeft = order.pointsUsed - order.pointsRefunded;
  if (left <= 0 && pointsLeft <= 0) return { ok: false, message: '订单已全额退款' };

  if (request.lines) {
    if (request.lines.length === 0) return { ok: false, field: 'lines', message: '请选择要退的商品' };
    const lines: RefundLinePlan[] = [];
    const seen = new Set<number>();
    for (const { index, qty } of request.lines) {
      const line = order.items[index];
      if (!Number.isInteger(index) || !line)
        return { ok: false, field: 'lines', message: `第 ${index + 1} 行商品不存在` };
      if (seen.has(index)) return { ok: false, field: 'lines', message: `第 ${index + 1} 行商品重复` };
      seen.add(index);
      if (line.payableFen === undefined)
        return { ok: false, field: 'lines', message: '该订单没有逐行分摊明细，请按金额退款' };
      const done = line.refundedQty ?? 0;
      if (!Number.isInteger(qty) || qty < 1 || qty > line.qty - done) {
        const name = line.name ?? `第 ${index + 1} 行商品`;
        return {
          ok: false,
          field: 'lines',
          message: line.qty - done === 0 ? `${name}已全部退款` : `${name}最多还可退 ${line.qty - done} 件`,
        };
      }
      const amountFen =
        cumulative(line.payableFen, done + qty, line.qty) - cumulative(line.payableFen, done, line.qty);
      const pointsFen = line.pointsFen ?? 0;
      const points = cumulative(pointsFen, done + qty, line.qty) - cumulative(pointsFen, done, line.qty);
      lines.push({ index, goodsId: line.goodsId, qty, amountFen, points });
    }
    const amountFen = lines.reduce((s, l) => s + l.amountFen, 0);
    const points = Math.min(
      pointsLeft,
      lines.reduce((s, l) => s + l.points, 0),
    );
    if (amountFen > left)
      return {
        ok: false,
        field: 'lines',
        message: `退款金额 ${formatMoney(amountFen)} 超过可退金额 ${formatMoney(left)}`,
      };
    const kind = amountFen === left && points === pointsLeft ? 'full' : 'partial';
    return { ok: true, kind, amountFen, points, lines };
  }

  if (request.amountFen !== undefined) {
    const amountFen = request.amountFen;
    if (!Number.isSafeInteger(amountFen) || amountFen < 1)
      return { ok: false, field: 'amountFen', message: '退款金额须大于 0' };
    if (amountFen > left)
      return { ok: false, field: 'amountFen', message: `退款金额不能超过可退金额 ${formatMoney(left)}` };
    return {
      ok: true,
      kind: amountFen === left && pointsLeft === 0 ? 'full' : 'partial',
      amountFen,
      points: 0,
      lines: [],
    };
  }

  return { ok: true, kind: 'full', amountFen: left, points: pointsLeft, lines: [] };
}
