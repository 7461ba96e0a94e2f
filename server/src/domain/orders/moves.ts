/**
 * Carrying out the order machine's moves (core/src/orders/moves.ts): core decides, this executes.
 * Every status change of an order goes through `moveOrder`, in one transaction: the decision
 * (409 with core's Chinese reason when the machine refuses), the conditional status UPDATE (of two
 * operators pressing 接单 at once exactly one moves the order), each effect the move names, and a
 * line on the timeline. After the commit the change is pushed over /ws to the order board.
 * A move that ends in paid is followed, in the same transaction, by 自动接单 when core's
 * `autoAcceptMove` says the order's store accepts by itself (`autoAccept` below).
 */
import {
  AUTO_ACCEPT_ACTOR,
  AUTO_ACCEPT_NOTE,
  autoAcceptMove,
  decideOrderMove,
  decidePayment,
  getResource,
  ORDER_BOARD_TOPIC,
  type OrderActor,
  type OrderEffect,
} from '@wanxiang/core';
import { sql } from 'kysely';
import { type Planned, sendPlanned, writeWithNext } from '../../db/together.js';
import { ApiError, conflict, invalidInput } from '../../http/envelope.js';
import type { AnyDb } from '../../resources/extensions.js';
import { changeRowQuery } from '../../resources/row-change.js';
import { type DbRow, modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { moveCard, movePoints, planBalance } from '../finance/ledger.js';
import { fireCouponRules, rewardReferral } from '../marketing/coupon-rules.js';
import { cancelDelivery, finishDelivery, requestRunner, startDelivery } from './deliveries.js';
import { type HistoryEntry, writeHistory } from './history.js';
import { refundOrder } from './refunds.js';
import { rowById, rowsByIdQuery, wireRowsById } from './rows.js';
import { moveStock, planStock } from './stock.js';

const orders = getResource('orders');

/** A transaction of the engine's write, as a move needs it. */
export interface MoveTx {
  /** The database outside the transaction (work after the commit uses it). */
  db: AnyDb;
  trx: AnyDb;
  dialect: string;
  now: number;
  touched(resource: string): void;
  afterCommit(fn: () => unknown): void;
  publish(topic: string, data: unknown): void;
}

export interface MoveInput {
  reason?: string | null;
  payMethod?: string | null;
  cardId?: number | null;
  runnerId?: number | null;
}

export interface Mover {
  actor: OrderActor;
  /** The signed-in operator (null for the system's timers). */
  userId: number | null;
}

/** The topic the admin order board listens to (core's ORDER_BOARD_TOPIC). */
export const ORDER_TOPIC = ORDER_BOARD_TOPIC;

/** After the commit, tells the order board (core's ORDER_BOARD_TOPIC) what happened to an order. */
export function announce(
  tx: Pick<MoveTx, 'afterCommit' | 'publish'>,
  type: 'created' | 'status' | 'refund' | 'assigned',
  order: WireRow,
  extra: Record<string, unknown> = {},
): void {
  const message = {
    id: order.id,
    orderNo: order.orderNo,
    storeId: order.storeId,
    status: order.status,
    ...extra,
  };
  tx.afterCommit(() => tx.publish(ORDER_TOPIC, { type, order: message }));
}

/**
 * One effect of a move. When it writes the order's row (paidFen, runnerId, pointsRefunded,
 * refundedFen) it answers the order as it is now, which the next effect sees; the others answer
 * null and leave the row as it was (reading it again after each of them was most of a payment's
 * statements).
 */
type Effect = (tx: MoveTx, order: WireRow, input: MoveInput, reason: string) => Promise<WireRow | null>;

/** Sets columns of the order and answers it as it is now: the update returns the row. */
async function setOrder(tx: MoveTx, orderId: number, values: Record<string, unknown>): Promise<WireRow> {
  const model = modelOf(orders);
  const row = await tx.trx
    .updateTable(model.table)
    .set(values)
    .where('id', '=', orderId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWireRow(model, row as DbRow);
}

/**
 * What a payment writes on the order (paidFen, payMethod, cardId), as core decides it, before
 * anything moves; written by the status change itself: one UPDATE where a payment took two.
 */
function paymentColumns(order: WireRow, input: MoveInput): Record<string, unknown> {
  const payment = decidePayment(
    {
      userId: order.userId == null ? null : Number(order.userId),
      payMethod: order.payMethod == null ? null : String(order.payMethod),
      payableFen: Number(order.payableFen ?? 0),
    },
    input,
  );
  if (!payment.ok) throw invalidInput({ [payment.field]: payment.message }, payment.message);
  return { paidFen: payment.paidFen, payMethod: payment.payMethod, cardId: payment.cardId };
}

/** Work an effect does outside this module (receipt printing), given by the area at start. */
export interface MoveServices {
  /** The receipt queued on the store's printers, as a plan sent with the status change. */
  printReceipt?: (tx: MoveTx, order: WireRow, mover: Mover) => Planned<void>;
}

/**
 * An effect whose statements do not depend on the status change: planned before it and sent with
 * it, one round trip (db/together.ts `sendPlanned`), then checked. `order` is the order as the
 * change will leave it. Null: not this time — the effect runs after the change, as the others.
 * A payment by balance was seven round trips; with its charge, its stock and (自动接单) its
 * receipt planned it is four.
 */
type Plan = (tx: MoveTx, order: WireRow, input: MoveInput) => Planned<unknown> | null;

/** The effects that are planned: the others run one after another (`effects`). */
type PlannedEffect = 'chargePayment' | 'reserveStock' | 'printReceipt';

function plans(services: MoveServices, mover: Mover): Record<PlannedEffect, Plan> {
  return {
    chargePayment(tx, order) {
      const payable = Number(order.paidFen ?? 0);
      const userId = order.userId == null ? null : Number(order.userId);
      if (payable <= 0 || order.payMethod !== 'balance' || userId === null) return null;
      return planBalance(tx, { ...charge(order, payable), userId });
    },
    reserveStock(tx, order) {
      const plan = planStock(tx.trx, tx.dialect, order.items as never, -1, tx.now);
      return {
        queries: plan.queries,
        async settle(rows) {
          await plan.settle(rows);
          tx.touched('goods');
        },
      };
    },
    printReceipt(tx, order) {
      return services.printReceipt?.(tx, order, mover) ?? null;
    },
  };
}

/** The ledger move of a payment of `payable` for `order`. */
function charge(order: WireRow, payable: number) {
  return {
    changeFen: -payable,
    kind: 'pay',
    refType: 'orders',
    refId: order.id,
    note: `订单 ${order.orderNo}`,
  } as const;
}

/**
 * The effects that run after the status change, one after another; with `plans`, every effect
 * of the machine (the type says so). `chargePayment` is in both: a card payment is not planned.
 */
function effects(mover: Mover): Record<Exclude<OrderEffect, PlannedEffect> | 'chargePayment', Effect> {
  return {
    async chargePayment(tx, order) {
      // The order already holds what it was paid with (`paymentColumns`, written with the status);
      // a balance is charged by the plan.
      const payable = Number(order.paidFen ?? 0);
      if (payable <= 0 || order.payMethod !== 'card' || order.cardId == null) return null;
      const userId = order.userId == null ? null : Number(order.userId);
      await moveCard(tx, { ...charge(order, payable), cardId: Number(order.cardId), userId });
      return null;
    },
    async releaseStock(tx, order) {
      // Stock is reserved by payment: an order cancelled unpaid reserved none.
      if (order.paidAt == null) return null;
      await moveStock(tx.trx, tx.dialect, order.items as never, 1, tx.now);
      tx.touched('goods');
      return null;
    },
    async requestRunner(tx, order) {
      await requestRunner(tx, order);
      return null;
    },
    async startDelivery(tx, order, input) {
      const runnerId = await startDelivery(tx, order, input.runnerId ?? null);
      return setOrder(tx, order.id, { runner_id: runnerId });
    },
    async finishDelivery(tx, order) {
      await finishDelivery(tx, order);
      return null;
    },
    async cancelDelivery(tx, order, _input, reason) {
      await cancelDelivery(tx, order, reason);
      return null;
    },
    async refundToSource(tx, order, _input, reason) {
      if (order.paidAt == null) return null;
      const left = Number(order.paidFen ?? 0) - Number(order.refundedFen ?? 0);
      if (left <= 0) return null;
      // The whole remainder in money; points are returnPoints' (so an unpaid order returns them
      // too). The order is already cancelled in this transaction; the refund is of the order as
      // it stood, so it is planned as a paid one.
      await refundOrder(
        tx,
        { ...order, status: 'paid' },
        { amountFen: left },
        { reason, operatorId: mover.userId, quiet: true },
      );
      return (await rowById(tx.trx, 'orders', order.id)) as WireRow;
    },
    async returnPoints(tx, order) {
      // `order` is current: an effect before this one that wrote it (a refund) had it read again.
      const left = Number(order.pointsUsed ?? 0) - Number(order.pointsRefunded ?? 0);
      if (left <= 0 || order.userId == null) return null;
      await movePoints(tx, {
        userId: Number(order.userId),
        change: left,
        reason: 'refund',
        refId: order.id,
        note: `订单 ${order.orderNo} 取消，退还积分`,
      });
      return setOrder(tx, order.id, { points_refunded: Number(order.pointsUsed) });
    },
    async returnCoupon(tx, order) {
      if (order.couponId == null) return null;
      const table = modelOf(getResource('userCoupons')).table;
      const coupon = await tx.trx
        .selectFrom(table)
        .select(['expires_at'])
        .where('id', '=', Number(order.couponId))
        .executeTakeFirst();
      if (!coupon) return null;
      const expired = coupon.expires_at != null && Number(coupon.expires_at) <= tx.now;
      await tx.trx
        .updateTable(table)
        .set({ status: expired ? 'expired' : 'unused', used_at: null, order_id: null, updated_at: tx.now })
        .where('id', '=', Number(order.couponId))
        .where('status', '=', 'used')
        .execute();
      tx.touched('userCoupons');
      return null;
    },
    async fireCouponRules(tx, order) {
      if (order.userId == null) return null;
      const userId = Number(order.userId);
      const earlier = await tx.trx
        .selectFrom(modelOf(orders).table)
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '=', 'completed')
        .where('id', '!=', order.id)
        .limit(1)
        .executeTakeFirst();
      if (!earlier) {
        await fireCouponRules(tx.trx, userId, { kind: 'firstOrder', at: tx.now });
        await rewardReferral(tx.trx, userId, tx.now);
        tx.touched('referrals');
      }
      const net = Number(order.paidFen ?? 0) - Number(order.refundedFen ?? 0);
      await fireCouponRules(tx.trx, userId, { kind: 'orderAmount', amountFen: net, at: tx.now });
      tx.touched('userCoupons');
      tx.touched('couponTemplates');
      return null;
    },
    async awardPoints(tx, order) {
      const net = Number(order.paidFen ?? 0) - Number(order.refundedFen ?? 0);
      const points = Math.floor(net / 100);
      if (points <= 0 || order.userId == null) return null;
      await movePoints(tx, {
        userId: Number(order.userId),
        change: points,
        reason: 'order',
        refId: order.id,
        note: `订单 ${order.orderNo} 完成奖励`,
      });
      return null;
    },
  };
}

/**
 * Makes `move` on order `orderId` for `mover`, as core's machine decides; answers the order after
 * it. `current` is the order as this transaction already read it (the action's row), when the
 * caller has it. Throws 404/409/422 (the transaction rolls back, nothing changes).
 */
export async function moveOrder(
  tx: MoveTx,
  services: MoveServices,
  orderId: number,
  move: string,
  mover: Mover,
  input: MoveInput = {},
  current?: WireRow,
  earlier: readonly HistoryEntry[] = [],
): Promise<WireRow> {
  const before = current ?? (await rowById(tx.trx, 'orders', orderId));
  if (!before) throw conflict('订单不存在');
  const decision = decideOrderMove(
    { status: String(before.status), fulfilment: String(before.fulfilment) },
    move,
    mover.actor,
    { reason: input.reason },
  );
  if (!decision.ok) {
    if (decision.code === 'reason') throw invalidInput({ reason: decision.message }, decision.message);
    throw conflict(decision.message);
  }
  const values: Record<string, unknown> = { status: decision.to, [decision.stamp]: tx.now };
  if (decision.to === 'cancelled') values.cancelReason = decision.reason ?? decision.move.label;
  if (decision.effects.includes('chargePayment')) Object.assign(values, paymentColumns(before, input));
  // Into paid, the store 自动接单 asks about is read with the status change, and the effects that
  // can be planned are sent with it: one round trip.
  const storeId = Number(before.storeId);
  const planned: Partial<Record<OrderEffect, Plan>> = plans(services, mover);
  const will = { ...before, ...values } as WireRow;
  const early = decision.effects.map((effect) => planned[effect]?.(tx, will, input) ?? null);
  const sent = await sendPlanned(
    tx.trx,
    [
      changeRowQuery(tx.trx, modelOf(orders), orderId, tx.now, { values, when: { status: [decision.from] } }),
      decision.to === 'paid' ? rowsByIdQuery(tx.trx, 'stores', [storeId]) : null,
    ],
    early,
  );
  const [[changed], storeRows] = sent.rows as [DbRow[], DbRow[]];
  // Before the plans' checks: a move that lost the race is refused as such, whatever they found.
  if (!changed) throw conflict('订单状态刚被他人改变，请刷新后重试');
  tx.touched('orders');
  let order = toWireRow(modelOf(orders), changed);
  const run: Partial<Record<OrderEffect, Effect>> = effects(mover);
  const reason = decision.reason ?? decision.move.label;
  for (const [i, effect] of decision.effects.entries()) {
    // In the machine's order: a planned effect's statements ran already, its checks run now.
    const plan = early[i];
    if (plan) await plan.settle(sent.planRows[i] ?? []);
    // An effect that wrote the order (paidFen, runnerId, refundedFen) answers it: the next one sees it.
    else order = (await run[effect]?.(tx, order, input, reason)) ?? order;
  }
  const entry: HistoryEntry = {
    orderId,
    operatorId: mover.userId,
    from: decision.from,
    to: decision.to,
    note: decision.reason ?? (mover.actor === 'system' ? `${decision.move.label}（系统）` : null),
  };
  tx.touched('orderHistory');
  announce(tx, 'status', order, { from: decision.from, move });
  // Every way an order becomes paid is a move into paid (today `pay`, by any method): 自动接单
  // hangs here, so no payment path can miss it. Its timeline line is written with the accept's.
  if (decision.to === 'paid')
    return autoAccept(
      tx,
      services,
      order,
      [...earlier, entry],
      wireRowsById('stores', storeRows).get(storeId),
    );
  await writeHistory(tx.trx, [...earlier, entry], tx.now);
  return order;
}

/** The system's own moves (自动接单): no operator; the timeline says 系统. */
const SYSTEM_MOVER: Mover = { actor: AUTO_ACCEPT_ACTOR, userId: null };

/**
 * 自动接单 (stores.autoAccept), as 美团/饿了么 back offices: an order that has just become paid is
 * accepted by the system in the payment's transaction when core's `autoAcceptMove` (the one owner
 * of the rule: the store has it on, is open, and the machine lets the system accept) says so — so
 * the order never sits in paid for such a store. The accept is the machine's move through
 * `moveOrder` like a manual 接单: its timeline row (系统, 门店自动接单), its effects (the delivery
 * record, the receipt on the store's auto-print printers, queued now and sent after the commit)
 * and its /ws push (paid, then accepted). Answers the order as it ends.
 *
 * Decision: the payment never fails for the automatic accept. When the rule says no, nothing is
 * tried and the order stays paid for the staff. The accept runs under a savepoint: if it is
 * refused all the same (a 409/422 of an effect), it is undone to the savepoint — with its
 * after-commit work (print sends, board push), which is held back until the accept has stood —
 * and the payment commits alone. Anything else (the database failing) fails the payment too,
 * like any failure of a move.
 */
async function autoAccept(
  tx: MoveTx,
  services: MoveServices,
  paid: WireRow,
  history: readonly HistoryEntry[],
  store: WireRow | undefined,
): Promise<WireRow> {
  const move = autoAcceptMove(
    { status: String(paid.status), fulfilment: String(paid.fulfilment) },
    store && { autoAccept: store.autoAccept, status: store.status },
  );
  if (!move) {
    await writeHistory(tx.trx, history, tx.now);
    return paid;
  }
  const later: (() => unknown)[] = [];
  const touched = new Set<string>();
  const inner: MoveTx = {
    ...tx,
    afterCommit: (fn) => later.push(fn),
    touched: (resource) => touched.add(resource),
  };
  // Never released: the commit ends it with the transaction, and a RELEASE would be one more
  // round trip on every payment. Sent with the accept's first statement (db/together.ts).
  await writeWithNext(tx.trx, sql`savepoint auto_accept`.compile(tx.trx));
  try {
    const accepted = await moveOrder(
      inner,
      services,
      paid.id,
      move,
      SYSTEM_MOVER,
      { reason: AUTO_ACCEPT_NOTE },
      paid,
      history,
    );
    for (const resource of touched) tx.touched(resource);
    for (const fn of later) tx.afterCommit(fn);
    return accepted;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await sql`rollback to savepoint auto_accept`.execute(tx.trx);
    await writeHistory(tx.trx, history, tx.now);
    return paid;
  }
}
