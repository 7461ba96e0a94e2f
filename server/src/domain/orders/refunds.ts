/**
 * Money going back (DOMAIN.md: refunds are records of their own, from paid onwards, to where the
 * order was paid from). `refundOrder` applies core's `planRefund` to the order in the caller's
 * transaction: one conditional UPDATE of the order (its refunded total may never pass what was
 * paid, and it must still be the version the plan was made from — so of two refunds at once one
 * applies and the other is refused, on SQLite and PostgreSQL alike), the refund record, the
 * credit to the balance or prepaid card (cash and WeChat are paid back outside: the record says
 * so), the points, and a line on the order's timeline.
 */
import { formatMoney, getResource, planRefund, type RefundRequest } from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict, invalidInput } from '../../http/envelope.js';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { epochMs, modelOf, type WireRow } from '../../resources/storage.js';
import { moveBalance, moveCard, movePoints } from '../finance/ledger.js';
import { writeHistory } from './history.js';
import { appendNumbered } from './numbers.js';

const orders = getResource('orders');
const orderRefunds = getResource('orderRefunds');

export interface MoneyTx {
  trx: AnyDb;
  now: number;
  touched(resource: string): void;
}

export interface RefundOptions {
  reason: string;
  operatorId: number | null;
  /** An existing pending refund record being approved (instead of a new record). */
  refundId?: number;
  /** Skip the timeline line (a cancellation writes its own). */
  quiet?: boolean;
}

type Item = Record<string, unknown> & { qty: number; refundedQty?: number };

/** Applies a refund to `order` (the row as read in this transaction); answers the refund record. */
export async function refundOrder(
  tx: MoneyTx,
  order: WireRow,
  request: RefundRequest,
  options: RefundOptions,
): Promise<WireRow | null> {
  const items = (order.items ?? []) as Item[];
  const plan = planRefund(
    {
      status: String(order.status),
      paidFen: Number(order.paidFen ?? 0),
      refundedFen: Number(order.refundedFen ?? 0),
      pointsUsed: Number(order.pointsUsed ?? 0),
      pointsRefunded: Number(order.pointsRefunded ?? 0),
      items: items.map((i) => ({ ...i, goodsId: Number(i.goodsId), qty: i.qty })) as never,
    },
    request,
  );
  if (!plan.ok)
    throw plan.field ? invalidInput({ [plan.field]: plan.message }, plan.message) : conflict(plan.message);
  if (plan.amountFen === 0 && plan.points === 0) return null;

  const newItems = items.map((item, index) => {
    const line = plan.lines.find((l) => l.index === index);
    return line ? { ...item, refundedQty: (item.refundedQty ?? 0) + line.qty } : item;
  });
  const table = modelOf(orders).table;
  const updated = await tx.trx
    .updateTable(table)
    .set({
      refunded_fen: sql`refunded_fen + ${plan.amountFen}`,
      points_refunded: sql`coalesce(points_refunded, 0) + ${plan.points}`,
      ...(plan.lines.length > 0 ? { items: JSON.stringify(newItems) } : {}),
      updated_at: nextUpdatedAt(tx.now),
    })
    .where('id', '=', order.id)
    .where('updated_at', '=', epochMs(order.updatedAt))
    .where(sql<boolean>`refunded_fen + ${plan.amountFen} <= paid_fen`)
    .returning(['id'])
    .executeTakeFirst();
  if (!updated) throw conflict('订单刚被他人修改（可能已退款），请刷新后重试');
  tx.touched('orders');

  const payMethod = String(order.payMethod);
  const values = {
    orderId: order.id,
    kind: plan.kind,
    amountFen: plan.amountFen,
    points: plan.points,
    items: plan.lines.map((l) => ({
      index: l.index,
      goodsId: l.goodsId,
      // Named as on the order, so the record (and its CSV cell) reads without the order.
      ...(typeof items[l.index]?.name === 'string' ? { name: items[l.index]?.name as string } : {}),
      sku: (items[l.index]?.sku as string | null | undefined) ?? null,
      qty: l.qty,
      amountFen: l.amountFen,
      points: l.points,
    })),
    reason: options.reason,
    payMethod,
    status: 'refunded',
    operatorId: options.operatorId,
    processedAt: tx.now,
    refundedAt: tx.now,
  };
  let record: WireRow;
  if (options.refundId) {
    const refundTable = modelOf(orderRefunds).table;
    const row = await tx.trx
      .updateTable(refundTable)
      .set({
        status: 'refunded',
        kind: plan.kind,
        points: plan.points,
        pay_method: payMethod,
        operator_id: options.operatorId,
        processed_at: tx.now,
        refunded_at: tx.now,
        updated_at: nextUpdatedAt(tx.now),
      })
      .where('id', '=', options.refundId)
      .where('status', '=', 'pending')
      .returning(['id', 'refund_no'])
      .executeTakeFirst();
    if (!row) throw conflict('退款申请已被处理');
    record = { id: Number(row.id), refundNo: row.refund_no, ...values } as unknown as WireRow;
  } else {
    record = await appendNumbered(tx.trx, orderRefunds, 'refundNo', 'R', values, tx.now);
  }
  tx.touched('orderRefunds');

  const note = `订单 ${order.orderNo} 退款`;
  const userId = order.userId == null ? null : Number(order.userId);
  if (plan.amountFen > 0) {
    if (payMethod === 'balance' && userId !== null)
      await moveBalance(tx, {
        userId,
        changeFen: plan.amountFen,
        kind: 'refund',
        refType: 'orderRefunds',
        refId: record.id,
        note,
      });
    else if (payMethod === 'card' && order.cardId != null)
      await moveCard(tx, {
        cardId: Number(order.cardId),
        changeFen: plan.amountFen,
        kind: 'refund',
        refType: 'orderRefunds',
        refId: record.id,
        note,
      });
  }
  if (plan.points > 0 && userId !== null)
    await movePoints(tx, { userId, change: plan.points, reason: 'refund', refId: order.id, note });

  if (!options.quiet) {
    const what = plan.kind === 'full' ? '全额退款' : '部分退款';
    const points = plan.points > 0 ? `，退还 ${plan.points} 积分` : '';
    await writeHistory(
      tx.trx,
      [
        {
          orderId: order.id,
          operatorId: options.operatorId,
          from: String(order.status),
          to: String(order.status),
          note: `${what} ${formatMoney(plan.amountFen)}${points}：${options.reason}`.slice(0, 200),
        },
      ],
      tx.now,
    );
  }
  return record;
}
