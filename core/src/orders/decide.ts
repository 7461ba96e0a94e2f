/**
 * The machine's step function: may `actor` make `move` on this order, and if so, what happens.
 * Pure; the server calls it before every change of an order's status and refuses with its
 * message (409); the UI asks `movesFor` which buttons to show.
 */
import {
  FULFILMENT_LABELS,
  type Fulfilment,
  findOrderMove,
  ORDER_ACTOR_LABELS,
  ORDER_MOVES,
  ORDER_STATUS_LABELS,
  type OrderActor,
  type OrderEffect,
  type OrderMove,
  type OrderStamp,
  type OrderStatus,
} from './moves';

/** What the machine looks at on an order. */
export interface OrderFacts {
  status: string;
  fulfilment: string;
}

export type MoveRefusalCode = 'unknown_move' | 'actor' | 'state' | 'fulfilment' | 'reason';

export type MoveDecision =
  | {
      ok: true;
      move: OrderMove;
      from: OrderStatus;
      to: OrderStatus;
      effects: readonly OrderEffect[];
      stamp: OrderStamp;
      /** The reason given (trimmed), or null. */
      reason: string | null;
    }
  | { ok: false; code: MoveRefusalCode; message: string };

const statusLabel = (s: string) => ORDER_STATUS_LABELS[s as OrderStatus] ?? s;

export function decideOrderMove(
  order: OrderFacts,
  moveName: string,
  actor: OrderActor,
  input: { reason?: string | null } = {},
): MoveDecision {
  const move = findOrderMove(moveName);
  if (!move) return { ok: false, code: 'unknown_move', message: `订单没有“${moveName}”操作` };
  if (!move.by.includes(actor))
    return { ok: false, code: 'actor', message: `${ORDER_ACTOR_LABELS[actor]}不能${move.label}` };
  if (!move.from.includes(order.status as OrderStatus))
    return {
      ok: false,
      code: 'state',
      message: `订单${statusLabel(order.status)}，不能${move.label}`,
    };
  if (move.fulfilment && !move.fulfilment.includes(order.fulfilment as Fulfilment)) {
    const kind = FULFILMENT_LABELS[order.fulfilment as Fulfilment] ?? order.fulfilment;
    return { ok: false, code: 'fulfilment', message: `${kind}订单不能${move.label}` };
  }
  const reason = input.reason?.trim() || null;
  if (move.needsReason && !reason) return { ok: false, code: 'reason', message: `请填写${move.label}原因` };
  return {
    ok: true,
    move,
    from: order.status as OrderStatus,
    to: move.to,
    effects: move.effects,
    stamp: move.stamp,
    reason,
  };
}

/** The moves `actor` may make on this order now (the buttons of the order's detail). */
export function movesFor(order: OrderFacts, actor: OrderActor): OrderMove[] {
  return ORDER_MOVES.filter(
    (m) =>
      m.by.includes(actor) &&
      m.from.includes(order.status as OrderStatus) &&
      (!m.fulfilment || m.fulfilment.includes(order.fulfilment as Fulfilment)),
  );
}

/** Statuses no move leaves. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = (['completed', 'cancelled'] as const).filter(
  (s) => !ORDER_MOVES.some((m) => m.from.includes(s)),
);
