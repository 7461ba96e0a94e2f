/**
 * 自动接单 (stores.autoAccept): when a store that accepts by itself gets a paid order, the system
 * takes the machine's `accept` move at once, as 美团 and 饿了么 merchant back offices do — in the
 * payment's transaction, so the order never waits in 已支付 for such a store. This is the rule of
 * WHEN; the server (server/src/domain/orders/moves.ts) asks it after every move that ends in paid
 * and carries the move out like a manual 接单 (delivery record, receipt printing, board push).
 *
 * Decision: only a store that is open (营业中) accepts by itself. A paused or closed store asked
 * for no new work: an order placed while it was open and paid after it paused stays paid for the
 * staff to accept or reject. Everything else is the machine's: the move is offered only when
 * `decideOrderMove` lets the system accept this order now, so a refusal is "no auto-accept",
 * never an error, and the order stays paid.
 */
import { decideOrderMove, type OrderFacts } from './decide';
import type { OrderActor, OrderMoveName } from './moves';

/** What the rule looks at on the order's store (its wire row will do). */
export interface AutoAcceptStore {
  /** 自动接单 (stores.autoAccept). */
  autoAccept?: unknown;
  /** open | paused | closed (stores.status). */
  status?: unknown;
}

/** Who makes the automatic move (the timeline's 系统). */
export const AUTO_ACCEPT_ACTOR: OrderActor = 'system';
/** The note of the automatic move on the order's timeline (the demo's timelines say the same). */
export const AUTO_ACCEPT_NOTE = '门店自动接单';

/**
 * The move the system makes by itself on this order of this store now: `accept` when the store
 * has 自动接单 on, is open, and the machine lets the system accept the order (it is paid); else
 * null — the order waits for the staff.
 */
export function autoAcceptMove(
  order: OrderFacts,
  store: AutoAcceptStore | null | undefined,
): Extract<OrderMoveName, 'accept'> | null {
  if (store?.autoAccept !== true || store.status !== 'open') return null;
  return decideOrderMove(order, 'accept', AUTO_ACCEPT_ACTOR).ok ? 'accept' : null;
}
