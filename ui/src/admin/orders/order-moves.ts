/**
 * What the board offers on an order, all from core: the order machine's moves for the store's
 * staff (`movesFor(order, 'merchant')`), 退款 while core's `planRefund` finds something left to
 * refund, and 打印小票 when the orders definition has a `print` action. Nothing here decides a
 * rule; it only arranges what core answers into buttons.
 */
import {
  type ActionDef,
  movesFor,
  ORDER_STATUS_LABELS,
  type OrderMove,
  type OrderStatus,
  planRefund,
  type RefundableOrder,
  type RefundRequest,
} from '@wanxiang/core';
import { definition } from '../../resources/definitions';
import type { OrderRow } from './order-api';

/** The orders definition's action of this name (the server's route), if it has one. */
export function ordersAction(name: string): ActionDef | undefined {
  return definition('orders').actions?.find((a) => a.name === name);
}

/** The staff's moves on this order now, as the machine allows them, in the machine's order. */
export function boardMoves(order: Pick<OrderRow, 'status' | 'fulfilment'>): OrderMove[] {
  return movesFor(order, 'merchant').filter((m) => ordersAction(m.name));
}

/** The move a row offers as its one quick button: the first forward move (not a refusal). */
export function quickMove(order: Pick<OrderRow, 'status' | 'fulfilment'>): OrderMove | undefined {
  return boardMoves(order).find((m) => !m.danger);
}

/** The button text of a move on the board: 支付 is the counter's 收款. */
export function moveLabel(move: Pick<OrderMove, 'name' | 'label'>): string {
  return move.name === 'pay' ? '收款' : move.label;
}

/** The order as core's refund planner reads it. */
export function refundable(order: OrderRow): RefundableOrder {
  return {
    status: order.status,
    paidFen: order.paidFen ?? 0,
    refundedFen: order.refundedFen ?? 0,
    pointsUsed: order.pointsUsed ?? 0,
    pointsRefunded: order.pointsRefunded ?? 0,
    items: order.items ?? [],
  };
}

/** What a refund would come to (core's planRefund), or why not. */
export function planOf(order: OrderRow, request: RefundRequest) {
  return planRefund(refundable(order), request);
}

/** Whether 退款 is offered: the definition has it and core finds something left to refund. */
export function canRefund(order: OrderRow): boolean {
  return !!ordersAction('refund') && planOf(order, {}).ok;
}

/** 打印小票: offered when the orders definition has `print` (receipt printing, another area). */
export function printAction(): ActionDef | undefined {
  return ordersAction('print');
}

export const statusLabel = (status: string | null | undefined): string =>
  status ? (ORDER_STATUS_LABELS[status as OrderStatus] ?? status) : '';
