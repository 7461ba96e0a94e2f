/**
 * The order machine (DOMAIN.md "The order machine"): every status, every move between them, who
 * may make it and what else it does. One table, in core; everything else is derived from it —
 * the orders definition's admin actions and life-cycle steps (definitions/oms.ts), the server's
 * execution (server/src/domain/orders/), the UI's buttons, the demo's walks.
 *
 * Decision: the machine is this transition table rather than an xstate machine. The issue allows
 * either; a table says everything the machine has to say (states, moves, actors, fulfilment
 * guards, effects, stamps) as data that the registry, the server and the UI read without running
 * an interpreter, and `decideOrderMove` (decide.ts) is the pure step function tests walk.
 *
 *   pending_payment ─pay→ paid ─accept→ accepted ─prepare→ preparing ─ready→ ready
 *   ready ─dispatch→ delivering ─deliver→ delivered ─complete→ completed      (delivery)
 *   ready ─pickedUp→ completed                                               (pickup, dineIn)
 *   → cancelled: expire (system, unpaid after 15 min), customerCancel (until paid),
 *                reject (merchant, once paid), cancel (merchant, with a reason, until delivered)
 *   delivering|delivered ─autoComplete→ completed (system, after the configured time)
 *   paid ─accept→ accepted is the system's too, at once, for a store with 自动接单 (auto-accept.ts)
 *
 * Refunds are not moves: they are records of their own (orderRefunds, refund.ts) from paid on.
 */

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'accepted',
  'preparing',
  'ready',
  'delivering',
  'delivered',
  'completed',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending_payment: '待支付',
  paid: '已支付',
  accepted: '已接单',
  preparing: '制作中',
  ready: '待取餐/待配送',
  delivering: '配送中',
  delivered: '已送达',
  completed: '已完成',
  cancelled: '已取消',
};

export const FULFILMENTS = ['delivery', 'pickup', 'dineIn'] as const;
export type Fulfilment = (typeof FULFILMENTS)[number];
export const FULFILMENT_LABELS: Readonly<Record<Fulfilment, string>> = {
  delivery: '外卖配送',
  pickup: '到店自取',
  dineIn: '堂食',
};

/** Who makes a move: the customer, the store's staff, a runner, or the system's timers. */
export type OrderActor = 'customer' | 'merchant' | 'runner' | 'system';
export const ORDER_ACTOR_LABELS: Readonly<Record<OrderActor, string>> = {
  customer: '顾客',
  merchant: '商家',
  runner: '骑手',
  system: '系统',
};

/**
 * What a move does besides changing the status, by name; the server carries each out in the
 * move's transaction, as far as it applies to the order (nothing to refund when nothing was paid,
 * no stock to release when none was reserved):
 */
export type OrderEffect =
  /** Debit the balance or prepaid card (cash and wechat are taken outside); paidFen = payableFen. */
  | 'chargePayment'
  /** Take the goods' (and SKUs') stock; refused when there is not enough. */
  | 'reserveStock'
  /** A delivery order gets its delivery record, waiting for a runner. */
  | 'requestRunner'
  /** Print the receipt on the store's printers that print on acceptance (after the commit). */
  | 'printReceipt'
  /** The runner has picked the order up: the delivery follows (a runner is required). */
  | 'startDelivery'
  /** The delivery is delivered; the runner is freed when it was his last open delivery. */
  | 'finishDelivery'
  /** What was paid and not yet refunded goes back where it was paid from, as a refund record. */
  | 'refundToSource'
  /** The coupon used on the order becomes usable again (if it has not expired meanwhile). */
  | 'returnCoupon'
  /** Points spent on the order (and not yet returned) go back to the customer. */
  | 'returnPoints'
  /** Reserved stock goes back. */
  | 'releaseStock'
  /** A delivery still open fails with the cancellation's reason; its runner is freed. */
  | 'cancelDelivery'
  /** The customer earns points for what the order finally cost (1 point a yuan). */
  | 'awardPoints'
  /** Coupon rules fire: 首单 on the customer's first completed order (and the referral's reward), 订单满额 on its amount. */
  | 'fireCouponRules';

/** The time field each move stamps on the order. */
export type OrderStamp =
  | 'paidAt'
  | 'acceptedAt'
  | 'preparingAt'
  | 'readyAt'
  | 'deliveringAt'
  | 'deliveredAt'
  | 'completedAt'
  | 'cancelledAt';

export type OrderMoveName =
  | 'pay'
  | 'accept'
  | 'reject'
  | 'prepare'
  | 'ready'
  | 'dispatch'
  | 'deliver'
  | 'complete'
  | 'pickedUp'
  | 'autoComplete'
  | 'cancel'
  | 'customerCancel'
  | 'expire';

export interface OrderMove {
  name: OrderMoveName;
  label: string;
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** Only orders of these fulfilments; all when absent. */
  fulfilment?: readonly Fulfilment[];
  by: readonly OrderActor[];
  effects: readonly OrderEffect[];
  stamp: OrderStamp;
  /** The move needs a reason (written to the order and its history). */
  needsReason?: boolean;
  /** Asked before it is done (the admin's confirmation text). */
  confirm?: string;
  danger?: boolean;
}

const CANCEL_EFFECTS: readonly OrderEffect[] = [
  'refundToSource',
  'returnCoupon',
  'returnPoints',
  'releaseStock',
  'cancelDelivery',
];

/** Every move of the machine; no other transition exists. */
export const ORDER_MOVES: readonly OrderMove[] = [
  {
    name: 'pay',
    label: '支付',
    from: ['pending_payment'],
    to: 'paid',
    by: ['customer', 'merchant'],
    effects: ['chargePayment', 'reserveStock'],
    stamp: 'paidAt',
  },
  {
    name: 'accept',
    label: '接单',
    from: ['paid'],
    to: 'accepted',
    by: ['merchant', 'system'],
    effects: ['requestRunner', 'printReceipt'],
    stamp: 'acceptedAt',
  },
  {
    name: 'reject',
    label: '拒单',
    from: ['paid'],
    to: 'cancelled',
    by: ['merchant'],
    effects: CANCEL_EFFECTS,
    stamp: 'cancelledAt',
    needsReason: true,
    danger: true,
    confirm: '拒单后订单将取消并原路退款，确定拒单？',
  },
  {
    name: 'prepare',
    label: '开始制作',
    from: ['accepted'],
    to: 'preparing',
    by: ['merchant'],
    effects: [],
    stamp: 'preparingAt',
  },
  {
    name: 'ready',
    label: '出餐',
    from: ['preparing'],
    to: 'ready',
    by: ['merchant'],
    effects: [],
    stamp: 'readyAt',
  },
  {
    name: 'dispatch',
    label: '开始配送',
    from: ['ready'],
    to: 'delivering',
    fulfilment: ['delivery'],
    by: ['merchant', 'runner'],
    effects: ['startDelivery'],
    stamp: 'deliveringAt',
  },
  {
    name: 'deliver',
    label: '确认送达',
    from: ['delivering'],
    to: 'delivered',
    fulfilment: ['delivery'],
    by: ['runner', 'merchant'],
    effects: ['finishDelivery'],
    stamp: 'deliveredAt',
  },
  {
    name: 'complete',
    label: '完成',
    from: ['delivered'],
    to: 'completed',
    by: ['customer', 'merchant', 'system'],
    effects: ['awardPoints', 'fireCouponRules'],
    stamp: 'completedAt',
  },
  {
    name: 'pickedUp',
    label: '已取餐',
    from: ['ready'],
    to: 'completed',
    fulfilment: ['pickup', 'dineIn'],
    by: ['customer', 'merchant'],
    effects: ['awardPoints', 'fireCouponRules'],
    stamp: 'completedAt',
  },
  {
    name: 'autoComplete',
    label: '自动完成',
    from: ['delivering', 'delivered'],
    to: 'completed',
    fulfilment: ['delivery'],
    by: ['system'],
    effects: ['finishDelivery', 'awardPoints', 'fireCouponRules'],
    stamp: 'completedAt',
  },
  {
    name: 'cancel',
    label: '取消订单',
    from: ['pending_payment', 'paid', 'accepted', 'preparing', 'ready', 'delivering'],
    to: 'cancelled',
    by: ['merchant'],
    effects: CANCEL_EFFECTS,
    stamp: 'cancelledAt',
    needsReason: true,
    danger: true,
    confirm: '取消后已付款项将原路退回，优惠券、积分和库存退还，确定取消？',
  },
  {
    name: 'customerCancel',
    label: '顾客取消',
    from: ['pending_payment', 'paid'],
    to: 'cancelled',
    by: ['customer'],
    effects: CANCEL_EFFECTS,
    stamp: 'cancelledAt',
  },
  {
    name: 'expire',
    label: '超时取消',
    from: ['pending_payment'],
    to: 'cancelled',
    by: ['system'],
    effects: CANCEL_EFFECTS,
    stamp: 'cancelledAt',
  },
];

const BY_NAME = new Map(ORDER_MOVES.map((m) => [m.name, m]));

export function findOrderMove(name: string): OrderMove | undefined {
  return BY_NAME.get(name as OrderMoveName);
}

/** An unpaid order is cancelled by the system this long after it was placed (DOMAIN.md). */
export const UNPAID_TIMEOUT_MS = 15 * 60_000;

/**
 * The `/ws` topic the admin order board listens to: every new order, move, refund and assignment
 * (`{type: created|status|refund|assigned, order}`), for users who may read orders or dispatch.
 */
export const ORDER_BOARD_TOPIC = 'orders';
