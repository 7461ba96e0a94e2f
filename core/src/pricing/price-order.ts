/**
 * Pricing an order (DOMAIN.md "Pricing (pure, in core)"): one pure function the UI's cart preview
 * and the server's order creation both call. In this order:
 *
 *   goods (Σ qty × unitPriceFen)
 *   − member discount      goods × (100 − rate) %, rounded as rates.ts says
 *   − 满减                  the highest reduction whose threshold the goods AFTER member discount reach
 *   − coupon               one; only when no 满减 applies or its activity is stackable; its threshold
 *                          checked after 满减 (coupon.ts)
 *   − points               1 point = 1 fen, capped at the platform's share and the goods left (points.ts)
 *   + packing + delivery
 *   = payable, never below 0, integer fen.
 *
 * Decision: packing (打包费) and delivery (配送费) are never discounted — every discount comes off
 * the goods only, as 美团 and 饿了么 price a takeaway (满减 and coupons are on 商品金额; the
 * fees are charged as they are). So a discount is at most the goods it comes off, and the payable
 * is never below packing + delivery.
 *
 * Every discount is spread over the goods lines pro rata to what each line has left at that step
 * (spread.ts: largest remainder, exact and deterministic), so each line carries its own share of
 * each discount, no line goes below 0, and a line's payableFen is exactly what a refund of that
 * line pays back in money (its pointsFen goes back as points): Σ lines' payableFen + packing +
 * delivery = payableFen. A 单品券 is spread over its own goods' lines only.
 *
 * Bad input throws a PricingInputError (validate.ts); refusals are in the result.
 */
import { couponOutcome } from './coupon';
import { pointsOutcome } from './points';
import { discountAtRate } from './rates';
import { reductionOutcome } from './reduction';
import { spreadInto } from './spread';
import type {
  CouponOutcome,
  PointsOutcome,
  PriceBreakdown,
  PricedLine,
  PriceInput,
  ReductionOutcome,
} from './types';
import { validatePriceInput } from './validate';

export function priceOrder(input: PriceInput): PriceBreakdown {
  const goodsFen = validatePriceInput(input);
  const { lines, packingFen, deliveryFen } = input;
  const n = lines.length;
  const left = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const line = lines[i] as (typeof lines)[number];
    left[i] = line.qty * line.unitPriceFen;
  }
  const amounts = left.slice();

  // Each step: a total, its shares over the lines (by what they have left), then take them off.
  const take = (total: number, weights: number[]): number[] => {
    const shares = new Array<number>(n);
    spreadInto(total, weights, shares);
    for (let i = 0; i < n; i++) left[i] = (left[i] as number) - (shares[i] as number);
    return shares;
  };

  // Member discount, on the goods first.
  const memberRate = input.memberDiscountRate ?? 100;
  const memberFen = discountAtRate(goodsFen, memberRate);
  const memberShares = take(memberFen, left);
  let goodsLeft = goodsFen - memberFen;

  // 满减 on the goods after member discount.
  let discountFen = 0;
  let reduction: ReductionOutcome | null = null;
  if (input.activity) {
    const r = reductionOutcome(input.activity.tiers, goodsFen, memberRate);
    discountFen = r.reduceFen;
    reduction = r.outcome;
  }
  const reduceShares = take(discountFen, left);
  goodsLeft -= discountFen;

  // One coupon, its threshold checked after 满减.
  let couponFen = 0;
  let coupon: CouponOutcome | null = null;
  let couponShares: number[];
  if (input.coupon) {
    const c = input.coupon;
    let weights = left;
    let itemInCart = false;
    let itemLeftFen = 0;
    if (c.kind === 'item') {
      weights = new Array<number>(n);
      for (let i = 0; i < n; i++) {
        const mine = (lines[i] as (typeof lines)[number]).goodsId === c.goodsId;
        itemInCart ||= mine;
        weights[i] = mine ? (left[i] as number) : 0;
        itemLeftFen += weights[i] as number;
      }
    }
    coupon = couponOutcome(c, {
      reduced: discountFen > 0,
      stackable: input.activity?.stackableWithCoupon ?? true,
      goodsLeftFen: goodsLeft,
      itemInCart,
      itemLeftFen,
    });
    if (coupon.applied) couponFen = coupon.amountFen;
    couponShares = take(couponFen, weights);
  } else {
    couponShares = take(0, left);
  }
  goodsLeft -= couponFen;

  // Points, capped at the platform's share of the order and at the goods left.
  let pointsFen = 0;
  let points: PointsOutcome | null = null;
  if (input.points && input.points.spend > 0) {
    points = pointsOutcome(input.points, goodsLeft + packingFen + deliveryFen, goodsLeft);
    pointsFen = points.fen;
  }
  const pointsShares = take(pointsFen, left);
  goodsLeft -= pointsFen;

  const priced = new Array<PricedLine>(n);
  for (let i = 0; i < n; i++) {
    const line = lines[i] as (typeof lines)[number];
    const m = memberShares[i] as number;
    const r = reduceShares[i] as number;
    const c = couponShares[i] as number;
    const p = pointsShares[i] as number;
    priced[i] = {
      goodsId: line.goodsId,
      sku: line.sku ?? null,
      qty: line.qty,
      unitPriceFen: line.unitPriceFen,
      amountFen: amounts[i] as number,
      memberFen: m,
      reduceFen: r,
      couponFen: c,
      pointsFen: p,
      discountFen: m + r + c + p,
      payableFen: left[i] as number,
    };
  }
  return {
    lines: priced,
    goodsFen,
    memberFen,
    packingFen,
    deliveryFen,
    discountFen,
    couponFen,
    pointsFen,
    pointsUsed: points?.used ?? 0,
    payableFen: goodsLeft + packingFen + deliveryFen,
    reduction,
    coupon,
    points,
  };
}
