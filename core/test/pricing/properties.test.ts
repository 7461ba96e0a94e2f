/**
 * Properties of priceOrder over generated carts (fast-check). Generated data is what the registry
 * admits (json-shapes.ts): qty 1–999, 满减 tiers each reducing less than its threshold, rates as
 * the memberLevels and couponTemplates fields allow.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CartLine, type PriceBreakdown, type PriceInput, priceOrder } from '../../src/index';

const line: fc.Arbitrary<CartLine> = fc.record({
  goodsId: fc.integer({ min: 1, max: 6 }),
  sku: fc.option(fc.constantFrom('小份', '大份'), { nil: undefined }),
  qty: fc.integer({ min: 1, max: 999 }),
  unitPriceFen: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 50_000 })),
});
const lines = fc.array(line, { minLength: 0, maxLength: 25 });

const tier = fc
  .record({
    thresholdFen: fc.integer({ min: 1, max: 200_000 }),
    reduceFen: fc.integer({ min: 1, max: 200_000 }),
  })
  .filter((t) => t.reduceFen < t.thresholdFen);
const activity = fc.record({
  tiers: fc.array(tier, { minLength: 1, maxLength: 10 }),
  stackableWithCoupon: fc.boolean(),
});
const threshold = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100_000 }));
const coupon = fc.oneof(
  fc.record({
    kind: fc.constant('cash' as const),
    valueFen: fc.integer({ min: 0, max: 50_000 }),
    thresholdFen: threshold,
  }),
  fc.record({
    kind: fc.constant('discount' as const),
    rate: fc.integer({ min: 10, max: 99 }),
    thresholdFen: threshold,
  }),
  fc.record({
    kind: fc.constant('item' as const),
    goodsId: fc.integer({ min: 1, max: 8 }),
    valueFen: fc.integer({ min: 0, max: 50_000 }),
    thresholdFen: threshold,
  }),
);
const points = fc.record({
  spend: fc.integer({ min: 0, max: 1_000_000 }),
  maxSharePercent: fc.integer({ min: 0, max: 100 }),
});

/** Everything but the lines. */
const terms = fc.record({
  packingFen: fc.integer({ min: 0, max: 1_000 }),
  deliveryFen: fc.integer({ min: 0, max: 2_000 }),
  memberDiscountRate: fc.option(fc.integer({ min: 50, max: 100 }), { nil: undefined }),
  activity: fc.option(activity, { nil: undefined }),
  coupon: fc.option(coupon, { nil: undefined }),
  points: fc.option(points, { nil: undefined }),
});
const order: fc.Arbitrary<PriceInput> = fc.tuple(lines, terms).map(([l, t]) => ({ lines: l, ...t }));

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const amounts = (r: PriceBreakdown) => [
  r.goodsFen,
  r.memberFen,
  r.discountFen,
  r.couponFen,
  r.pointsFen,
  r.pointsUsed,
  r.payableFen,
  ...r.lines.flatMap((l) => [
    l.memberFen,
    l.reduceFen,
    l.couponFen,
    l.pointsFen,
    l.discountFen,
    l.payableFen,
  ]),
];

describe('priceOrder properties', () => {
  it('every amount is a non-negative integer; no line pays less than 0 or more than its amount', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        for (const x of amounts(r)) expect(Number.isSafeInteger(x) && x >= 0).toBe(true);
        for (const l of r.lines) expect(l.payableFen).toBeLessThanOrEqual(l.amountFen);
      }),
    );
  });

  it("the line shares add up to each total exactly, and the payable is the breakdown's sum", () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(sum(r.lines.map((l) => l.amountFen))).toBe(r.goodsFen);
        expect(sum(r.lines.map((l) => l.memberFen))).toBe(r.memberFen);
        expect(sum(r.lines.map((l) => l.reduceFen))).toBe(r.discountFen);
        expect(sum(r.lines.map((l) => l.couponFen))).toBe(r.couponFen);
        expect(sum(r.lines.map((l) => l.pointsFen))).toBe(r.pointsFen);
        for (const l of r.lines) {
          expect(l.discountFen).toBe(l.memberFen + l.reduceFen + l.couponFen + l.pointsFen);
          expect(l.payableFen).toBe(l.amountFen - l.discountFen);
        }
        expect(r.payableFen).toBe(
          r.goodsFen - r.memberFen + r.packingFen + r.deliveryFen - r.discountFen - r.couponFen - r.pointsFen,
        );
      }),
    );
  });

  it('refunding every line returns exactly what was paid: Σ line payables + packing + delivery', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(sum(r.lines.map((l) => l.payableFen)) + r.packingFen + r.deliveryFen).toBe(r.payableFen);
        expect(r.payableFen).toBeGreaterThanOrEqual(r.packingFen + r.deliveryFen);
      }),
    );
  });

  it('chooses the best tier: no reached tier reduces more', () => {
    fc.assert(
      fc.property(
        lines,
        activity,
        fc.option(fc.integer({ min: 50, max: 100 }), { nil: undefined }),
        (l, a, rate) => {
          const r = priceOrder({
            lines: l,
            packingFen: 0,
            deliveryFen: 0,
            activity: a,
            memberDiscountRate: rate,
          });
          const goods = r.goodsFen - r.memberFen;
          const reached = a.tiers.filter((t) => t.thresholdFen <= goods);
          const best = Math.max(0, ...reached.map((t) => t.reduceFen));
          expect(r.discountFen).toBe(Math.min(best, goods));
          expect(r.reduction?.tier?.reduceFen ?? 0).toBe(best);
        },
      ),
    );
  });

  it('a refused coupon takes nothing; a non-stackable 满减 and a coupon never both apply', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        if (r.coupon && !r.coupon.applied) expect(r.couponFen).toBe(0);
        if (r.coupon?.applied) expect(r.couponFen).toBe(r.coupon.amountFen);
        if (!input.coupon) expect(r.coupon).toBeNull();
        if (r.coupon?.applied && input.activity && !input.activity.stackableWithCoupon) {
          expect(r.discountFen).toBe(0);
        }
      }),
    );
  });

  it('points never exceed the offer, the share of the order before points, or the goods left', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        const before = r.payableFen + r.pointsFen;
        expect(r.pointsUsed).toBe(r.pointsFen);
        expect(r.pointsUsed).toBeLessThanOrEqual(input.points?.spend ?? 0);
        expect(r.pointsFen).toBeLessThanOrEqual(
          Math.floor((before * (input.points?.maxSharePercent ?? 0)) / 100),
        );
        expect(r.pointsFen).toBeLessThanOrEqual(before - r.packingFen - r.deliveryFen);
      }),
    );
  });

  it('is deterministic and does not change its input', () => {
    fc.assert(
      fc.property(order, (input) => {
        const copy = structuredClone(input);
        expect(priceOrder(input)).toEqual(priceOrder(copy));
        expect(input).toEqual(copy);
      }),
    );
  });

  /**
   * Adding an item never lowers the payable — with a precondition. 满减 and coupon thresholds make
   * the payable fall when an item lifts the goods over a threshold (满 30 减 5: ¥29.99 pays ¥29.99,
   * ¥30.00 pays ¥25.00 — see the example below), whatever the tiers, even "sane" ones reducing less
   * than their threshold. An item coupon's goods arriving in the cart is such a threshold too, and
   * a capped item coupon follows its goods' share of the member discount, which moves by a fen as
   * other lines arrive. What holds in general: the payable falls by at most what the 满减 and the
   * coupon grew by. And with no threshold to cross — no 满减 activity, a cash or discount coupon
   * without threshold — it never falls.
   */
  it('adding an item lowers the payable by at most the growth of 满减 and coupon', () => {
    fc.assert(
      fc.property(order, line, fc.nat(), (input, extra, at) => {
        const before = priceOrder(input);
        const more = [...input.lines];
        more.splice(at % (more.length + 1), 0, extra);
        const after = priceOrder({ ...input, lines: more });
        const grew = after.discountFen - before.discountFen + (after.couponFen - before.couponFen);
        expect(after.payableFen).toBeGreaterThanOrEqual(before.payableFen - Math.max(0, grew));
      }),
    );
  });

  it('adding an item never lowers the payable when there is no threshold to cross', () => {
    const noThreshold = order.map((input) => ({
      ...input,
      activity: undefined,
      coupon: input.coupon && input.coupon.kind !== 'item' ? { ...input.coupon, thresholdFen: 0 } : undefined,
    }));
    fc.assert(
      fc.property(noThreshold, line, fc.nat(), (input, extra, at) => {
        const before = priceOrder(input);
        const more = [...input.lines];
        more.splice(at % (more.length + 1), 0, extra);
        expect(priceOrder({ ...input, lines: more }).payableFen).toBeGreaterThanOrEqual(before.payableFen);
      }),
    );
  });

  it('(example) crossing a 满减 threshold lowers the payable, as 满减 means to', () => {
    const activity = { tiers: [{ thresholdFen: 3000, reduceFen: 500 }], stackableWithCoupon: true };
    const cart = {
      lines: [{ goodsId: 1, qty: 1, unitPriceFen: 2999 }],
      packingFen: 0,
      deliveryFen: 0,
      activity,
    };
    expect(priceOrder(cart).payableFen).toBe(2999);
    const more = { ...cart, lines: [...cart.lines, { goodsId: 2, qty: 1, unitPriceFen: 1 }] };
    expect(priceOrder(more).payableFen).toBe(2500);
  });
});
