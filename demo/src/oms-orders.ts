/**
 * Food-ordering operations (core definitions/oms.ts), the order half: a few thousand orders over
 * the last 60 days simulated through the order machine — core's, walked as the state graph
 * `lifecycleOf` derives from the orders definition (which step leads where, for which
 * fulfilment, stamping which time); this file only chooses where each order ends and how long
 * each step takes — so every derived row agrees with them:
 *
 * - money: goods + packing + delivery − 满减 − coupon = payable; paid = payable once paid;
 *   refunded = the refunds that went through;
 * - a timestamp per status reached, in order, none in the future; live orders (the last two
 *   hours) in every in-between status, older ones completed or cancelled;
 * - orderHistory rows per transition; deliveries for delivery orders from `ready` on, with their
 *   runner; orderRefunds for cancellations after payment and for some partial refunds;
 * - payments by balance and refunds to it in the balance ledger, card payments off the card's
 *   balance, points for completed orders, coupons marked used (and returned on cancellation),
 *   first-order and order-amount coupons issued by their rules, referral rewards.
 */

import { chinaCompactStamp, priceOrder, stampsOf } from '@wanxiang/core';
import { atChinaTime, DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import { type Runner, runnersFor } from './delivery.js';
import type { Card, Ledger } from './finance.js';
import {
  bestDiscount,
  type Campaign,
  type Coupon,
  couponInput,
  type Discount,
  type Template,
  type TemplateKey,
  type Wallet,
} from './marketing.js';
import type { Store } from './oms.js';
import {
  CANCEL_REASONS,
  CANCELLED,
  cancelStep,
  type Fulfilment,
  ORDER_MACHINE,
  ORDER_STAMPS,
  orderAmounts,
  orderFees,
  orderLines,
  orderWalkTo,
  pad,
  REMARKS,
} from './order-machine.js';
import type { Customer, MemberLevel } from './people.js';
import type { Rng } from './random.js';
import { distanceM, near } from './zh.js';

export interface OrderWorld {
  stores: readonly Store[];
  customers: readonly Customer[];
  runners: readonly Runner[];
  discounts: readonly Discount[];
  templates: Record<TemplateKey, Template>;
  campaigns: readonly Campaign[];
  levels: readonly MemberLevel[];
  cards: readonly Card[];
  wallet: Wallet;
  balance: Ledger;
  points: Ledger;
}

/** A value of orders.status (core's ORDER_STATUS). */
type Status = string;

/** How an order ends (or where a live one stands). */
interface Plan {
  createdAt: number;
  fulfilment: Fulfilment;
  store: Store;
  /** The last status reached. */
  status: Status;
  /** For cancelled orders: the status it was cancelled from, and by whom. */
  cancelFrom?: Status;
  cancelBy?: 'system' | 'user' | 'merchant';
  /** How long each step of the machine takes this order (ms), by step name. */
  steps: Record<string, number>;
}

/** Live orders per status (they all sit in the last two hours). */
const LIVE: readonly (readonly [Status, number])[] = [
  ['pending_payment', 12],
  ['paid', 14],
  ['accepted', 14],
  ['preparing', 18],
  ['ready', 16],
  ['delivering', 12],
  ['delivered', 10],
];

const REFUND_REASONS = [
  '少送了一份',
  '餐品洒漏',
  '口味与描述不符',
  '送达超时，餐品凉了',
  '商品有异物',
  '做错了规格',
];

/** Meal-time weighted hour of day (China time). */
function mealHour(rng: Rng, kind: Store['brand']['kind']): number {
  if (kind === 'noodles')
    return rng.weighted([
      [7, 6],
      [8, 8],
      [9, 4],
      [10, 2],
      [11, 8],
      [12, 9],
      [13, 4],
      [14, 2],
      [17, 4],
      [18, 6],
      [19, 4],
      [20, 2],
    ] as const);
  if (kind === 'tea')
    return rng.weighted([
      [10, 2],
      [11, 3],
      [12, 4],
      [13, 5],
      [14, 6],
      [15, 7],
      [16, 6],
      [17, 4],
      [19, 4],
      [20, 5],
      [21, 3],
    ] as const);
  return rng.weighted([
    [10, 1],
    [11, 8],
    [12, 10],
    [13, 5],
    [14, 1],
    [16, 1],
    [17, 6],
    [18, 10],
    [19, 7],
    [20, 2],
  ] as const);
}

function fulfilmentOf(rng: Rng, store: Store): Fulfilment {
  if (store.brand.kind === 'tea')
    return rng.weighted([
      ['delivery', 6],
      ['pickup', 4],
    ] as const);
  return rng.weighted([
    ['delivery', 6],
    ['pickup', 1.5],
    ['dineIn', 2.5],
  ] as const);
}

/** Durations of the machine's steps (by their names in core's definition) for one order. */
function stepsOf(rng: Rng, store: Store, fulfilment: Fulfilment): Record<string, number> {
  const s = (min: number, max: number) => rng.int(min * 60, max * 60) * 1000;
  const steps: Record<string, number> = {
    pay: s(0.3, 3),
    accept: store.autoAccept ? rng.int(1, 10) * 1000 : s(0.5, 4),
    prepare: s(1, 5),
    ready: store.brand.kind === 'tea' ? s(3, 10) : s(8, 22),
  };
  if (fulfilment === 'delivery') {
    steps.dispatch = s(3, 12);
    steps.deliver = s(10, 32);
    steps.complete = s(30, 110);
  } else steps.pickedUp = s(3, 20);
  return steps;
}

function durationOf(plan: Pick<Plan, 'steps'>, step: string): number {
  const ms = plan.steps[step];
  if (ms === undefined) throw new Error(`no duration for the order step ${step}`);
  return ms;
}

export function simulateOrders(ctx: DemoContext, world: OrderWorld, count: number): void {
  const rng = ctx.random('orders');
  const { stores, customers, wallet, templates } = world;
  const operator = ctx.staff.operator;

  // ---- who orders where ----------------------------------------------------------------------
  const point = new Map<number, { lng: number; lat: number }>();
  const appetite = new Map<number, number>();
  for (const c of customers) {
    point.set(c.row.id, near(rng, c.place.lng, c.place.lat, 1500));
    // A few regulars order a lot; most now and then.
    appetite.set(c.row.id, rng.chance(0.15) ? rng.float(4, 10) : rng.float(0.3, 2));
  }
  const local = new Map<number, Customer[]>();
  const cityWide = new Map<number, Customer[]>();
  for (const store of stores) {
    local.set(
      store.row.id,
      customers.filter(
        (c) =>
          c.place.city === store.city &&
          distanceM(point.get(c.row.id) as { lng: number; lat: number }, store.point) <=
            (store.row.deliveryRadiusM as number),
      ),
    );
    cityWide.set(
      store.row.id,
      customers.filter((c) => c.place.city === store.city),
    );
  }
  const pickCustomer = (store: Store, at: number, fulfilment: Fulfilment): Customer | null => {
    const pool = (fulfilment === 'delivery' ? local.get(store.row.id) : cityWide.get(store.row.id)) ?? [];
    const eligible = pool.filter((c) => c.since < at - 10 * MINUTE && c.row.status === 'active');
    if (eligible.length === 0) return null;
    return rng.weighted(eligible.map((c) => [c, appetite.get(c.row.id) as number] as const));
  };

  // ---- coupons issued before any order -------------------------------------------------------
  const registerRuleFrom = ctx.now - 200 * DAY;
  for (const c of customers)
    if (c.since >= registerRuleFrom)
      wallet.issue(c.row.id, templates.newcomer, 'rule', c.since + rng.int(1, 30) * 1000);
  for (const c of rng.sample(customers, 30)) {
    const at = Math.max(c.since + DAY, ctx.now - rng.int(1, 58) * DAY);
    wallet.issue(c.row.id, templates.birthday, 'rule', atChinaTime(at, 0, 5));
  }
  const fixedFrom = ctx.now - 45 * DAY - (ctx.now % DAY);
  for (const c of rng.sample(
    customers.filter((c) => c.since < fixedFrom),
    40,
  ))
    wallet.issue(c.row.id, templates.over100, 'manual', fixedFrom + rng.int(0, 600) * 1000);
  for (const c of rng.sample(
    customers.filter((c) => c.since < ctx.now - 20 * DAY),
    25,
  ))
    wallet.issue(c.row.id, templates.teaRate, 'manual', ctx.now - rng.int(1, 20) * DAY);
  for (const c of rng.sample(
    customers.filter((c) => c.since < ctx.now - 15 * DAY && c.place.city === '杭州'),
    15,
  ))
    wallet.issue(c.row.id, templates.noodleItem, 'manual', ctx.now - rng.int(1, 15) * DAY);

  // Referrals: customers who joined during a campaign, many through a friend's invitation.
  const invitedBy = new Map<number, { campaign: Campaign; inviter: Customer; row: Row }>();
  for (const campaign of world.campaigns) {
    const joined = customers.filter(
      (c) => c.since >= campaign.startAt && c.since < Math.min(campaign.endAt, ctx.now),
    );
    for (const invitee of joined) {
      if (!rng.chance(0.6)) continue;
      const inviters = customers.filter(
        (c) => c.since < invitee.since - 7 * DAY && c.place.city === invitee.place.city,
      );
      if (inviters.length === 0) continue;
      const inviter = rng.pick(inviters);
      const row = ctx.add('referrals', {
        campaignId: campaign.row.id,
        inviterId: inviter.row.id,
        inviteeId: invitee.row.id,
        rewardedAt: null as number | null,
        createdAt: invitee.since,
        updatedAt: invitee.since,
      });
      invitedBy.set(invitee.row.id, { campaign, inviter, row });
      wallet.issue(invitee.row.id, campaign.invitee, 'referral', invitee.since + 5000);
    }
  }

  // Cards: some moved into the balance right after purchase, some frozen later.
  const cardOf = new Map<number, Card>();
  const frozenAt = new Map<Card, number>();
  world.cards.forEach((card, i) => {
    if (i % 12 === 5) {
      const at = card.soldAt + rng.int(1, 3) * DAY;
      world.balance.add({
        userId: card.userId,
        at,
        change: card.row.balanceFen,
        kind: 'card',
        refType: 'prepaidCard',
        refId: card.row.id,
        note: `储值卡 ${card.row.cardNo} 余额转入`,
      });
      card.row.balanceFen = 0;
      card.row.status = 'usedUp';
      card.row.updatedAt = at;
      return;
    }
    if (i % 15 === 7) frozenAt.set(card, ctx.now - rng.int(1, 10) * DAY);
    if (!cardOf.has(card.userId)) cardOf.set(card.userId, card);
  });

  // ---- plans: when each order was placed and how it ends -------------------------------------
  const plans: Plan[] = [];
  const open = stores.filter((s) => s.row.status === 'open');
  const closedSince = new Map<number, number>();
  for (const s of stores) if (s.row.status === 'closed') closedSince.set(s.row.id, ctx.now - 18 * DAY);

  for (const [status, n] of LIVE) {
    for (let i = 0; i < n; i++) {
      const candidates = status === 'delivering' || status === 'delivered' ? open : open;
      const store = rng.pick(candidates);
      const fulfilment: Fulfilment =
        status === 'delivering' || status === 'delivered' ? 'delivery' : fulfilmentOf(rng, store);
      const steps = stepsOf(rng, store, fulfilment);
      const elapsed = orderWalkTo(fulfilment, status).steps.reduce(
        (a, step) => a + durationOf({ steps }, step.name),
        0,
      );
      // Still in this status: less time has passed since reaching it than its next step takes
      // (an unpaid order is cancelled after 15 minutes).
      const whole = orderWalkTo(fulfilment, 'completed');
      const ahead = whole.steps[whole.states.indexOf(status)];
      const next =
        status === ORDER_MACHINE.initial[0] || !ahead ? 14 * MINUTE : durationOf({ steps }, ahead.name);
      const createdAt = ctx.now - elapsed - rng.int(5, Math.max(6, Math.floor((next * 0.9) / 1000))) * 1000;
      plans.push({ createdAt, fulfilment, store, status, steps });
    }
  }
  // A few cancelled in the last hours, so the live list shows them too.
  const historical = count - plans.length;
  for (let i = 0; i < historical; i++) {
    const recent = i < 40;
    const store = rng.pick(stores);
    // Busier lately: more orders on recent days.
    const daysBack = recent ? 0 : Math.floor(rng.next() ** 1.3 * 60);
    let createdAt =
      atChinaTime(ctx.now - daysBack * DAY, mealHour(rng, store.brand.kind), rng.int(0, 59)) +
      rng.int(0, 59) * 1000;
    if (createdAt > ctx.now - 4 * HOUR) createdAt = ctx.now - 4 * HOUR - rng.int(10, 20 * 60) * MINUTE;
    const closed = closedSince.get(store.row.id);
    if (closed !== undefined && createdAt > closed - 4 * HOUR)
      createdAt = closed - rng.int(5, 40) * DAY - rng.int(0, 8) * HOUR;
    if (createdAt < (store.row.createdAt as number) + DAY)
      createdAt = (store.row.createdAt as number) + DAY + rng.int(0, 50) * DAY;
    const fulfilment = fulfilmentOf(rng, store);
    const steps = stepsOf(rng, store, fulfilment);
    const outcome = rng.weighted([
      ['completed', 88],
      ['unpaid', 4.5],
      ['userPaid', 2.5],
      ['reject', 2],
      ['merchant', 1.8],
      ['failed', fulfilment === 'delivery' ? 1.2 : 0],
    ] as const);
    if (outcome === 'completed') plans.push({ createdAt, fulfilment, store, status: 'completed', steps });
    else if (outcome === 'unpaid')
      plans.push({
        createdAt,
        fulfilment,
        store,
        status: CANCELLED,
        cancelFrom: 'pending_payment',
        cancelBy: rng.chance(0.6) ? 'system' : 'user',
        steps,
      });
    else if (outcome === 'userPaid')
      plans.push({
        createdAt,
        fulfilment,
        store,
        status: CANCELLED,
        cancelFrom: 'paid',
        cancelBy: 'user',
        steps,
      });
    else if (outcome === 'reject')
      plans.push({
        createdAt,
        fulfilment,
        store,
        status: CANCELLED,
        cancelFrom: 'paid',
        cancelBy: 'merchant',
        steps,
      });
    else if (outcome === 'merchant')
      plans.push({
        createdAt,
        fulfilment,
        store,
        status: CANCELLED,
        cancelFrom: rng.pick(['accepted', 'preparing'] as const),
        cancelBy: 'merchant',
        steps,
      });
    else
      plans.push({
        createdAt,
        fulfilment,
        store,
        status: CANCELLED,
        cancelFrom: 'delivering',
        cancelBy: 'merchant',
        steps,
      });
  }
  plans.sort((a, b) => a.createdAt - b.createdAt);

  // ---- the orders ------------------------------------------------------------------------------
  const history: { at: number; row: Record<string, unknown> }[] = [];
  const refunds: { at: number; row: Record<string, unknown> }[] = [];
  const deliveries: { at: number; row: Record<string, unknown> }[] = [];
  const completedOrders = new Map<number, number>();
  const firstCompletion = new Map<number, number>();
  const busyRunners = new Set<number>();
  const sales = new Map<number, number>();
  const orderNos = new Set<string>();

  for (const plan of plans) {
    const { store, fulfilment } = plan;
    const customer =
      pickCustomer(store, plan.createdAt, fulfilment) ?? pickCustomer(store, plan.createdAt, 'pickup');
    if (!customer) continue;
    const userId = customer.row.id;
    const onSale = store.goods.filter((g) => g.row.status === 'onSale');

    // Items: distinct goods, a SKU each, mostly one of each.
    const lines: { goodsId: number; name: string; sku: string | null; qty: number; unitPriceFen: number }[] =
      [];
    const lineCount =
      store.brand.kind === 'tea'
        ? rng.weighted([
            [1, 5],
            [2, 4],
            [3, 2],
          ] as const)
        : rng.weighted([
            [1, 3],
            [2, 5],
            [3, 3],
            [4, 1],
          ] as const);
    for (const good of rng.sample(onSale, lineCount)) {
      const sku = rng.pick(good.skus);
      lines.push({
        goodsId: good.row.id,
        name: good.row.name as string,
        sku: sku.name,
        qty: rng.weighted([
          [1, 8],
          [2, 3],
          [3, 1],
        ] as const),
        unitPriceFen: sku.priceFen,
      });
    }
    let goodsFen = lines.reduce((s, l) => s + l.qty * l.unitPriceFen, 0);
    // Delivery orders reach the store's minimum: the customer adds one more of the first line.
    while (fulfilment === 'delivery' && goodsFen < (store.row.minOrderFen as number)) {
      const first = lines[0] as (typeof lines)[number];
      first.qty += 1;
      goodsFen += first.unitPriceFen;
    }
    // The store's 满减 activity with the largest reduction for these goods, then core's pricing
    // (the same function order creation will call) for it and each coupon the customer holds.
    const best = bestDiscount(world.discounts, store.row.id, plan.createdAt, goodsFen);
    const fees = orderFees(fulfilment, store.row as Row & { packingFeeFen: number; deliveryFeeFen: number });
    const price = (c: Coupon | null) =>
      priceOrder({
        lines,
        ...fees,
        activity: best ? { tiers: best.discount.tiers, stackableWithCoupon: best.discount.stackable } : null,
        coupon: c ? couponInput(c.template) : null,
      });
    const willPay = plan.status !== 'pending_payment' && plan.cancelFrom !== 'pending_payment';
    let coupon: Coupon | null = null;
    let priced = price(null);
    if (willPay && (!best || best.discount.stackable) && rng.chance(0.7)) {
      for (const c of wallet.available(userId, plan.createdAt, store.row.id)) {
        const withCoupon = price(c);
        if (withCoupon.couponFen > priced.couponFen) {
          coupon = c;
          priced = withCoupon;
        }
      }
    }
    const money = orderAmounts(priced);
    const { packingFen, deliveryFen, payableFen } = money;

    // Stamps along the walk up to where the order got: per status, and the fields each step sets.
    const walk = orderWalkTo(
      fulfilment,
      plan.status === CANCELLED ? (plan.cancelFrom as Status) : plan.status,
    );
    const stamps: Record<Status, number> = { [walk.states[0] as Status]: plan.createdAt };
    const stamped: Record<string, number | null> = Object.fromEntries(ORDER_STAMPS.map((f) => [f, null]));
    let t = plan.createdAt;
    walk.steps.forEach((step, i) => {
      t += durationOf(plan, step.name);
      stamps[walk.states[i + 1] as Status] = t;
      for (const field of stampsOf(step)) stamped[field] = t;
    });
    let cancelledAt: number | null = null;
    let cancelReason: string | null = null;
    if (plan.status === CANCELLED) {
      const from = plan.cancelFrom as Status;
      if (from === 'pending_payment') {
        cancelledAt =
          plan.cancelBy === 'system'
            ? plan.createdAt + 15 * MINUTE
            : plan.createdAt + rng.int(20, 600) * 1000;
        cancelReason = rng.pick(
          plan.cancelBy === 'system' ? CANCEL_REASONS.system : CANCEL_REASONS.userUnpaid,
        );
      } else if (from === 'delivering') {
        cancelledAt = t + rng.int(15, 40) * MINUTE;
        cancelReason = rng.pick(CANCEL_REASONS.failed);
      } else {
        cancelledAt = t + rng.int(30, 600) * 1000;
        cancelReason = rng.pick(
          plan.cancelBy === 'user'
            ? CANCEL_REASONS.userPaid
            : from === 'paid'
              ? CANCEL_REASONS.reject
              : CANCEL_REASONS.merchant,
        );
      }
      for (const field of stampsOf(cancelStep(fulfilment, from))) stamped[field] = cancelledAt;
    }

    // Payment.
    const paidAt = stamps.paid ?? null;
    let payMethod: 'balance' | 'card' | 'wechat' | 'cash' | null = null;
    if (paidAt !== null) {
      const card = cardOf.get(userId);
      const frozen = card ? frozenAt.get(card) : undefined;
      const cardUsable =
        card &&
        card.row.status === 'active' &&
        card.soldAt < plan.createdAt &&
        (frozen === undefined || frozen > plan.createdAt) &&
        card.row.balanceFen >= payableFen;
      payMethod = rng.weighted([
        ['wechat', 62],
        ['balance', 18],
        ['card', cardUsable ? 30 : 0],
        ['cash', fulfilment === 'delivery' ? 0 : 14],
      ] as const);
      if (payMethod === 'card' && card) {
        card.row.balanceFen -= payableFen;
        card.row.updatedAt = paidAt;
      }
    } else if (plan.status === 'pending_payment' || plan.cancelFrom === 'pending_payment') {
      payMethod = rng.weighted([
        ['wechat', 8],
        ['balance', 2],
      ] as const);
    }

    const id = ctx.nextId('orders');
    let orderNo = `${chinaCompactStamp(plan.createdAt)}${pad(store.row.id)}${pad(id % 10_000, 4)}`;
    while (orderNos.has(orderNo))
      orderNo = `${chinaCompactStamp(plan.createdAt)}${pad(store.row.id)}${rng.digits(4)}`;
    orderNos.add(orderNo);

    // Runner and delivery (from ready on).
    let runnerId: number | null = null;
    const reachedReady = stamps.ready !== undefined;
    if (fulfilment === 'delivery' && reachedReady) {
      const candidates = runnersFor(world.runners, store);
      const live = plan.status !== 'completed' && plan.status !== CANCELLED;
      // Live orders go to free runners first; a busy runner may carry a second order.
      const free = live ? candidates.filter((r) => !busyRunners.has(r.row.id)) : candidates;
      const pool = free.length > 0 ? free : candidates;
      const waiting = plan.status === 'ready' && rng.chance(0.5);
      const runner = waiting || pool.length === 0 ? null : rng.pick(pool);
      if (runner) {
        runnerId = runner.row.id;
        if (live && plan.status !== 'delivered') busyRunners.add(runner.row.id);
      }
      const readyAt = stamps.ready as number;
      const assignedAt = runner
        ? Math.min(readyAt + rng.int(20, 150) * 1000, stamps.delivering ?? ctx.now)
        : null;
      const distance = distanceM(point.get(userId) as { lng: number; lat: number }, store.point);
      const failed = plan.status === CANCELLED;
      const status = failed
        ? 'failed'
        : plan.status === 'ready'
          ? runner
            ? 'assigned'
            : 'waiting'
          : plan.status === 'delivering'
            ? 'pickedUp'
            : 'delivered';
      const deliveredAt = stamps.delivered ?? null;
      deliveries.push({
        at: readyAt,
        row: {
          orderId: id,
          runnerId,
          status,
          distanceM: distance,
          feeFen: 400 + Math.ceil(distance / 1000) * 150,
          assignedAt,
          pickedUpAt: stamps.delivering ?? null,
          deliveredAt,
          failReason: failed ? cancelReason : null,
          updatedAt: cancelledAt ?? deliveredAt ?? stamps.delivering ?? assignedAt ?? readyAt,
        },
      });
    }

    // History: one row per transition.
    const merchantStep = (s: Status) =>
      s === 'accepted' ||
      s === 'preparing' ||
      s === 'ready' ||
      (s === 'completed' && fulfilment !== 'delivery');
    const note: Partial<Record<Status, string>> = {
      pending_payment: fulfilment === 'dineIn' ? '顾客扫码下单' : '顾客下单',
      paid:
        payMethod === 'balance'
          ? '余额支付成功'
          : payMethod === 'card'
            ? '储值卡支付成功'
            : payMethod === 'cash'
              ? '收银台现金收款'
              : '微信支付成功',
      accepted: store.autoAccept ? '门店自动接单' : '商家接单',
      preparing: '开始制作',
      ready: fulfilment === 'delivery' ? '出餐完成，等待骑手取餐' : '出餐完成，请顾客取餐',
      delivering: '骑手已取餐，配送中',
      delivered: '骑手已送达',
      completed:
        fulfilment === 'delivery' ? '送达后自动完成' : fulfilment === 'dineIn' ? '顾客已用餐' : '顾客已取餐',
    };
    let previous: Status | null = null;
    for (const s of walk.states) {
      const by =
        (s === 'accepted' && store.autoAccept) || !merchantStep(s)
          ? s === 'paid' && payMethod === 'cash'
            ? operator
            : null
          : operator;
      history.push({
        at: stamps[s] as number,
        row: { orderId: id, operatorId: by, fromStatus: previous, toStatus: s, note: note[s] ?? null },
      });
      previous = s;
    }
    if (cancelledAt !== null)
      history.push({
        at: cancelledAt,
        row: {
          orderId: id,
          operatorId: plan.cancelBy === 'merchant' ? operator : null,
          fromStatus: previous,
          toStatus: CANCELLED,
          note: cancelReason,
        },
      });

    const paidFen = paidAt !== null ? payableFen : 0;
    let refundedFen = 0;

    // Money.
    if (paidAt !== null && payMethod === 'balance')
      world.balance.add({
        userId,
        at: paidAt,
        change: -paidFen,
        kind: 'pay',
        refType: 'order',
        refId: id,
        note: `订单 ${orderNo}`,
      });
    if (coupon && paidAt !== null && plan.status !== CANCELLED) {
      coupon.row.status = 'used';
      coupon.row.usedAt = paidAt;
      coupon.row.orderId = id;
    }
    const refundTo = (amount: number, at: number) => {
      if (payMethod === 'balance')
        world.balance.add({
          userId,
          at,
          change: amount,
          kind: 'refund',
          refType: 'order',
          refId: id,
          note: `订单 ${orderNo} 退款`,
        });
      if (payMethod === 'card') {
        const card = cardOf.get(userId) as Card;
        card.row.balanceFen += amount;
      }
    };
    const refundNo = (at: number) => `RF${chinaCompactStamp(at)}${rng.digits(4)}`;

    // A paid order cancelled is refunded in full to where it was paid from.
    if (cancelledAt !== null && paidAt !== null) {
      const refundedAt = cancelledAt + (payMethod === 'wechat' ? rng.int(30, 300) * 1000 : 2000);
      refundedFen = paidFen;
      refundTo(paidFen, refundedAt);
      refunds.push({
        at: cancelledAt,
        row: {
          refundNo: refundNo(cancelledAt),
          orderId: id,
          kind: 'full',
          amountFen: paidFen,
          items: lines.map((l) => ({ goodsId: l.goodsId, qty: l.qty, amountFen: l.qty * l.unitPriceFen })),
          reason: cancelReason,
          status: 'refunded',
          rejectReason: null,
          operatorId: plan.cancelBy === 'merchant' ? operator : null,
          processedAt: cancelledAt,
          refundedAt,
          updatedAt: refundedAt,
        },
      });
    }

    // Completed: points, sales, first-order and order-amount coupons; sometimes a partial refund.
    const completedAt = stamps.completed ?? null;
    if (completedAt !== null) {
      for (const l of lines) sales.set(l.goodsId, (sales.get(l.goodsId) ?? 0) + l.qty);
      completedOrders.set(userId, (completedOrders.get(userId) ?? 0) + 1);
      if (!firstCompletion.has(userId)) {
        firstCompletion.set(userId, completedAt);
        wallet.issue(userId, templates.over50, 'rule', completedAt + 1000);
      }
      if (paidFen >= 8800 && completedAt > ctx.now - 90 * DAY)
        wallet.issue(userId, templates.orderReturn, 'rule', completedAt + 2000);
      const earned = Math.floor(paidFen / 100);
      if (earned > 0)
        world.points.add({
          userId,
          at: completedAt,
          change: earned,
          kind: 'order',
          refType: null,
          refId: id,
          note: `订单 ${orderNo}`,
        });

      if (rng.chance(0.05) && paidFen > 0) {
        const requestedAt = completedAt + rng.int(10, 36 * 60) * MINUTE;
        if (requestedAt < ctx.now - 10 * MINUTE) {
          const line = rng.pick(lines);
          const goodsPaid = Math.max(0, paidFen - packingFen - deliveryFen);
          const amountFen = Math.max(
            1,
            Math.min(paidFen, Math.round((line.unitPriceFen * goodsPaid) / goodsFen)),
          );
          const fresh = ctx.now - requestedAt < DAY;
          const status = fresh
            ? rng.weighted([
                ['pending', 4],
                ['approved', 2],
                ['refunded', 3],
                ['rejected', 1],
              ] as const)
            : rng.weighted([
                ['refunded', 3],
                ['rejected', 1],
              ] as const);
          const processedAt =
            status === 'pending' ? null : Math.min(ctx.now - MINUTE, requestedAt + rng.int(5, 240) * MINUTE);
          const refundedAt =
            status === 'refunded'
              ? Math.min(ctx.now, (processedAt as number) + rng.int(1, 30) * MINUTE)
              : null;
          if (refundedAt !== null) {
            refundedFen += amountFen;
            refundTo(amountFen, refundedAt);
          }
          refunds.push({
            at: requestedAt,
            row: {
              refundNo: refundNo(requestedAt),
              orderId: id,
              kind: 'partial',
              amountFen,
              items: [{ goodsId: line.goodsId, qty: 1, amountFen }],
              reason: rng.pick(REFUND_REASONS),
              status,
              rejectReason:
                status === 'rejected'
                  ? rng.pick(['经核实餐品无质量问题', '已超过售后时限', '顾客已同意补送，不再退款'])
                  : null,
              operatorId: processedAt === null ? null : operator,
              processedAt,
              refundedAt,
              updatedAt: refundedAt ?? processedAt ?? requestedAt,
            },
          });
        }
      }
    }

    const last = Math.max(...Object.values(stamps), cancelledAt ?? 0);
    ctx.add('orders', {
      orderNo,
      storeId: store.row.id,
      userId,
      items: orderLines(lines, priced),
      ...money,
      pointsRefunded: 0,
      paidFen,
      refundedFen,
      payMethod,
      fulfilment,
      address: fulfilment === 'delivery' ? customer.address : null,
      remark: rng.chance(0.3) ? rng.pick(REMARKS) : null,
      runnerId,
      status: plan.status,
      ...stamped,
      cancelReason,
      createdAt: plan.createdAt,
      updatedAt: last,
    });
  }

  const addSorted = (resource: string, list: { at: number; row: Record<string, unknown> }[]) => {
    list.sort((a, b) => a.at - b.at);
    for (const { at, row } of list)
      ctx.add(resource, { ...row, createdAt: at, updatedAt: row.updatedAt ?? at });
  };
  addSorted('orderHistory', history);
  addSorted('orderRefunds', refunds);
  addSorted('deliveries', deliveries);

  // Referral rewards once the invitee's first order completed, while the campaign ran.
  for (const [inviteeId, { campaign, inviter, row }] of invitedBy) {
    const first = firstCompletion.get(inviteeId);
    if (first === undefined || first > campaign.endAt) continue;
    const at = first + 3000;
    row.rewardedAt = at;
    row.updatedAt = at;
    wallet.issue(inviter.row.id, campaign.inviter, 'referral', at);
    world.points.add({
      userId: inviter.row.id,
      at,
      change: 100,
      kind: 'referral',
      refType: null,
      refId: row.id,
      note: '邀请好友首单奖励',
    });
  }

  // Points swapped for a coupon by customers who had enough (one swap each).
  const earnedAt = new Map<number, { at: number; change: number }[]>();
  for (const o of ctx.rows('orders')) {
    if (o.completedAt === null) continue;
    const list = earnedAt.get(o.userId as number) ?? [];
    list.push({ at: o.completedAt as number, change: Math.floor((o.paidFen as number) / 100) });
    earnedAt.set(o.userId as number, list);
  }
  for (const [userId, list] of earnedAt) {
    if (!rng.chance(0.35)) continue;
    list.sort((a, b) => a.at - b.at);
    let sum = 0;
    const reached = list.find((e) => {
      sum += e.change;
      return sum >= 400;
    });
    if (!reached) continue;
    const at = Math.min(ctx.now - MINUTE, reached.at + rng.int(1, 72) * HOUR);
    world.points.add({
      userId,
      at,
      change: -300,
      kind: 'redeem',
      refType: null,
      refId: templates.pointsSwap.row.id,
      note: `兑换「${templates.pointsSwap.row.name}」`,
    });
    wallet.issue(userId, templates.pointsSwap, 'manual', at + 1000);
  }

  // ---- what the orders leave behind ----------------------------------------------------------
  for (const store of stores) for (const g of store.goods) g.row.salesCount = sales.get(g.row.id) ?? 0;
  for (const card of world.cards) {
    if (card.row.status === 'active' && card.row.balanceFen === 0) card.row.status = 'usedUp';
    const frozen = frozenAt.get(card);
    if (frozen !== undefined && card.row.status === 'active') {
      card.row.status = 'frozen';
      card.row.updatedAt = frozen;
    }
  }
  const today = atChinaTime(ctx.now, 0);
  const todayCount = new Map<number, number>();
  for (const d of ctx.rows('deliveries'))
    if (d.runnerId && d.status === 'delivered' && (d.deliveredAt as number) >= today)
      todayCount.set(d.runnerId as number, (todayCount.get(d.runnerId as number) ?? 0) + 1);
  for (const r of world.runners) {
    r.row.todayCount = todayCount.get(r.row.id) ?? 0;
    r.row.status = busyRunners.has(r.row.id) ? 'delivering' : rng.chance(0.65) ? 'idle' : 'offline';
    r.row.updatedAt = ctx.now - rng.int(1, 30) * MINUTE;
  }
}

/** After the ledgers: each customer's level from their points, and when their row last changed. */
export function settleCustomers(
  ctx: DemoContext,
  customers: readonly Customer[],
  levels: readonly MemberLevel[],
): void {
  const lastMove = new Map<number, number>();
  for (const resource of ['balanceLedger', 'pointsLedger'])
    for (const e of ctx.rows(resource))
      lastMove.set(
        e.userId as number,
        Math.max(lastMove.get(e.userId as number) ?? 0, e.createdAt as number),
      );
  const sorted = [...levels].sort((a, b) => b.pointsThreshold - a.pointsThreshold);
  for (const c of customers) {
    const level = sorted.find((l) => c.row.points >= l.pointsThreshold);
    c.row.memberLevelId = level?.id ?? null;
    c.row.updatedAt = Math.max(c.since, lastMove.get(c.row.id) ?? 0);
  }
}
