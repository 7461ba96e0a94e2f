/**
 * An order's life from the SDK alone — no server, no database: price a cart with core's pricing
 * function (member discount, the best 满减, a coupon, points), walk it through the order machine
 * as the counter, the kitchen, a runner and the system would, and refund one unit of a line with
 * core's refund rule. What it prints is what the back office and the server would do; they call
 * the same functions.
 *
 *   npx tsx --tsconfig examples/tsconfig.json examples/order-walk.ts
 *
 * Exit code 0 when every step did what the rules say, 1 otherwise.
 */
import {
  decideOrderMove,
  FULFILMENT_LABELS,
  formatMoney,
  movesFor,
  ORDER_STATUS_LABELS,
  type OrderActor,
  type OrderStatus,
  planRefund,
  priceOrder,
} from '@wanxiang/core';

export function walkAnOrder(log: (line: string) => void = console.log) {
  // 1. Price: two bowls of noodles and a large milk tea, a 95 折 member, 满30减5 / 满60减12,
  //    a ¥5 coupon for orders of ¥40 and more, and 300 points offered.
  const priced = priceOrder({
    lines: [
      { goodsId: 1, qty: 2, unitPriceFen: 2800 },
      { goodsId: 2, sku: '大杯', qty: 1, unitPriceFen: 1800 },
    ],
    packingFen: 100,
    deliveryFen: 500,
    memberDiscountRate: 95,
    activity: {
      tiers: [
        { thresholdFen: 3000, reduceFen: 500 },
        { thresholdFen: 6000, reduceFen: 1200 },
      ],
      stackableWithCoupon: true,
    },
    coupon: { kind: 'cash', valueFen: 500, thresholdFen: 4000 },
    points: { spend: 300, maxSharePercent: 50 },
  });
  log(
    `商品 ${formatMoney(priced.goodsFen)} − 会员 ${formatMoney(priced.memberFen)} − 满减 ${formatMoney(priced.discountFen)}` +
      ` − 券 ${formatMoney(priced.couponFen)} − 积分 ${formatMoney(priced.pointsFen)} + 打包 ${formatMoney(priced.packingFen)}` +
      ` + 配送 ${formatMoney(priced.deliveryFen)} = 应付 ${formatMoney(priced.payableFen)}`,
  );
  if (priced.reduction) log(`满减：${priced.reduction.message}`);

  // 2. Walk: who makes each move. A refused move answers why, in Chinese.
  const order = { status: 'pending_payment' as string, fulfilment: 'delivery' };
  const steps: [string, OrderActor][] = [
    ['accept', 'merchant'], // refused: not paid yet
    ['pay', 'customer'],
    ['accept', 'merchant'],
    ['prepare', 'merchant'],
    ['ready', 'merchant'],
    ['dispatch', 'runner'],
    ['deliver', 'runner'],
    ['complete', 'system'],
  ];
  const refusals: string[] = [];
  for (const [move, actor] of steps) {
    const decision = decideOrderMove(order, move, actor);
    if (!decision.ok) {
      refusals.push(decision.message);
      log(`  ✗ ${move}：${decision.message}`);
      continue;
    }
    order.status = decision.to;
    const effects = decision.effects.length > 0 ? `（${decision.effects.join('、')}）` : '';
    log(`  ✓ ${decision.move.label} → ${ORDER_STATUS_LABELS[decision.to as OrderStatus]}${effects}`);
  }
  log(
    `${FULFILMENT_LABELS.delivery}订单最终：${ORDER_STATUS_LABELS[order.status as OrderStatus]}；商家此时可做：${
      movesFor(order, 'merchant')
        .map((m) => m.label)
        .join('、') || '无'
    }`,
  );

  // 3. Refund one bowl: its exact share of every discount comes back, and its points.
  const refund = planRefund(
    {
      status: order.status,
      paidFen: priced.payableFen,
      refundedFen: 0,
      pointsUsed: priced.pointsUsed,
      pointsRefunded: 0,
      items: priced.lines,
    },
    { lines: [{ index: 0, qty: 1 }] },
  );
  if (refund.ok)
    log(
      `退一碗面：退款 ${formatMoney(refund.amountFen)}，退还 ${refund.points} 积分（${refund.kind === 'full' ? '全额' : '部分'}退款）`,
    );
  return { priced, finalStatus: order.status, refusals, refund };
}

// Run as a program (not when a test imports it).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { finalStatus, refund } = walkAnOrder();
  process.exit(finalStatus === 'completed' && refund.ok ? 0 : 1);
}
