/**
 * What every order generator shares (the demo's simulation in oms-orders.ts, the bench seeder's
 * million orders): core's order machine as a graph to walk, the charges and payable of an order,
 * its number, and the words customers and merchants write on it.
 *
 * The machine is `lifecycleOf` over core's orders definition: which step leads from which status
 * to which, for which fulfilment, and which time field each step stamps. A generator only
 * chooses where an order ends and how long each step takes.
 */
import {
  getResource,
  type LifecyclePath,
  type LifecycleStep,
  lifecycleOf,
  type PriceBreakdown,
  pathTo,
  stampsOf,
  stepsFrom,
} from '@wanxiang/core';

export type Fulfilment = 'delivery' | 'pickup' | 'dineIn';

export const ORDER_MACHINE = lifecycleOf(getResource('orders'));
/** Where every order starts (pending_payment). */
export const ORDER_START = ORDER_MACHINE.initial[0] as string;
export const CANCELLED = 'cancelled';
/** Every field a step of the machine stamps (paidAt … completedAt, cancelledAt). */
export const ORDER_STAMPS: readonly string[] = [...new Set(ORDER_MACHINE.steps.flatMap(stampsOf))];

const walks = new Map<string, LifecyclePath | null>();

/**
 * The statuses and steps an order of this fulfilment passes through to `status`, never through
 * an end on the way; null when it never gets there (a pickup order is never delivering).
 */
export function orderWalk(fulfilment: Fulfilment, status: string): LifecyclePath | null {
  const key = `${fulfilment}/${status}`;
  let walk = walks.get(key);
  if (walk === undefined) {
    walk = pathTo(ORDER_MACHINE, { fulfilment }, status, { avoid: ORDER_MACHINE.final });
    walks.set(key, walk);
  }
  return walk;
}

/** orderWalk, for a status the order must reach. */
export function orderWalkTo(fulfilment: Fulfilment, status: string): LifecyclePath {
  const walk = orderWalk(fulfilment, status);
  if (!walk) throw new Error(`a ${fulfilment} order never reaches ${status}`);
  return walk;
}

/** The step that cancels an order standing in `status`. */
export function cancelStep(fulfilment: Fulfilment, status: string): LifecycleStep {
  const step = stepsFrom(ORDER_MACHINE, status, { fulfilment }).find((s) => s.to === CANCELLED);
  if (!step) throw new Error(`a ${fulfilment} order cannot be cancelled from ${status}`);
  return step;
}

/** The statuses an order can be cancelled from (the cancel step's `from`). */
export const CANCELLABLE: readonly string[] = ORDER_MACHINE.steps
  .filter((s) => s.to === CANCELLED)
  .flatMap((s) => s.from);

export interface OrderAmounts {
  goodsFen: number;
  memberFen: number;
  pointsFen: number;
  pointsUsed: number;
  packingFen: number;
  deliveryFen: number;
  discountFen: number;
  couponFen: number;
  payableFen: number;
}

/** The store's fees for an order by fulfilment: core's pricing rule. */
export { orderFees } from '@wanxiang/core';

/** The money columns an order row keeps, from core's pricing breakdown (`priceOrder`). */
export function orderAmounts(priced: PriceBreakdown): OrderAmounts {
  const {
    goodsFen,
    memberFen,
    pointsFen,
    pointsUsed,
    packingFen,
    deliveryFen,
    discountFen,
    couponFen,
    payableFen,
  } = priced;
  return {
    goodsFen,
    memberFen,
    pointsFen,
    pointsUsed,
    packingFen,
    deliveryFen,
    discountFen,
    couponFen,
    payableFen,
  };
}

/** The order's lines as orders keep them: what pricing gave each (its shares, what it cost). */
export function orderLines<L extends { goodsId: number; qty: number }>(
  lines: readonly L[],
  priced: PriceBreakdown,
) {
  return lines.map((line, i) => {
    const p = priced.lines[i] as PriceBreakdown['lines'][number];
    return {
      ...line,
      discountFen: p.discountFen,
      payableFen: p.payableFen,
      pointsFen: p.pointsFen,
      refundedQty: 0,
    };
  });
}

export function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export const CANCEL_REASONS = {
  system: ['超时未支付，系统自动取消'],
  userUnpaid: ['顾客取消：不想要了', '顾客取消：选错商品', '顾客取消：重新下单'],
  userPaid: ['顾客取消：地址填写错误', '顾客取消：临时有事不需要了', '顾客取消：预计送达时间太久'],
  reject: ['商家拒单：食材已售完', '商家拒单：超出配送范围', '商家拒单：门店繁忙暂不接单'],
  merchant: [
    '商家取消：门店临时停电',
    '商家取消：设备故障无法出餐',
    '商家取消：骑手运力不足，联系顾客后取消',
  ],
  failed: ['顾客电话无人接听，退回门店', '收货地址不存在，联系顾客后取消'],
};

export const REMARKS = [
  '少辣',
  '不要香菜',
  '多放醋',
  '不要葱',
  '餐具不用了，环保',
  '请放门口，谢谢',
  '到了打电话',
  '加一副餐具',
  '饭多一点',
  '微辣',
];
