import { describe, expect, it } from 'vitest';
import { type PriceInput, PricingInputError, priceOrder } from '../../src/index';

const base: PriceInput = {
  lines: [
    { goodsId: 1, qty: 2, unitPriceFen: 1800 },
    { goodsId: 2, sku: '大杯', qty: 1, unitPriceFen: 1500 },
  ],
  packingFen: 200,
  deliveryFen: 500,
};
const tiers = [
  { thresholdFen: 3000, reduceFen: 500 },
  { thresholdFen: 5000, reduceFen: 1000 },
];

describe('priceOrder: totals', () => {
  it('goods + packing + delivery when there is nothing to discount', () => {
    const r = priceOrder(base);
    expect(r).toMatchObject({ goodsFen: 5100, memberFen: 0, discountFen: 0, couponFen: 0, pointsFen: 0 });
    expect(r.payableFen).toBe(5800);
    expect(r.lines.map((l) => [l.sku, l.amountFen, l.discountFen, l.payableFen])).toEqual([
      [null, 3600, 0, 3600],
      ['大杯', 1500, 0, 1500],
    ]);
    expect([r.reduction, r.coupon, r.points]).toEqual([null, null, null]);
  });

  it('an empty cart costs its packing and delivery', () => {
    expect(priceOrder({ lines: [], packingFen: 100, deliveryFen: 300 }).payableFen).toBe(400);
  });

  it('applies the member discount to the goods first, rounded half up, and spreads it', () => {
    const r = priceOrder({ ...base, memberDiscountRate: 95 });
    expect(r.memberFen).toBe(255);
    expect(r.lines.map((l) => l.memberFen)).toEqual([180, 75]);
    expect(r.payableFen).toBe(5800 - 255);
    // 95 折 of 9.5 fen → 10 (nothing off); of 30 fen → 28.5 → 29.
    const tiny = (unitPriceFen: number) =>
      priceOrder({
        lines: [{ goodsId: 1, qty: 1, unitPriceFen }],
        packingFen: 0,
        deliveryFen: 0,
        memberDiscountRate: 95,
      });
    expect(tiny(10).memberFen).toBe(0);
    expect(tiny(30).memberFen).toBe(1);
  });

  it('does not discount packing or delivery: the payable never goes below them', () => {
    const r = priceOrder({
      ...base,
      activity: { tiers: [{ thresholdFen: 100, reduceFen: 99_999 }], stackableWithCoupon: true },
      coupon: { kind: 'cash', valueFen: 99_999 },
      points: { spend: 99_999, maxSharePercent: 100 },
    });
    expect(r.discountFen).toBe(5100);
    expect(r.couponFen).toBe(0);
    expect(r.pointsFen).toBe(0);
    expect(r.payableFen).toBe(700);
    expect(r.lines.every((l) => l.payableFen === 0)).toBe(true);
  });
});

describe('priceOrder: 满减', () => {
  it('takes the highest reduction whose threshold the goods reach', () => {
    const r = priceOrder({ ...base, activity: { tiers, stackableWithCoupon: true } });
    expect(r.discountFen).toBe(1000);
    expect(r.reduction).toEqual({
      tier: { thresholdFen: 5000, reduceFen: 1000 },
      next: null,
      message: '已享满 ¥50.00 减 ¥10.00',
    });
    expect(r.lines.map((l) => l.reduceFen)).toEqual([706, 294]);
    expect(r.payableFen).toBe(5800 - 1000);
  });

  it('chooses by reduction, wherever the tier is listed', () => {
    const unsorted = [
      { thresholdFen: 5000, reduceFen: 1000 },
      { thresholdFen: 1000, reduceFen: 100 },
      { thresholdFen: 4000, reduceFen: 1200 },
    ];
    const r = priceOrder({ ...base, activity: { tiers: unsorted, stackableWithCoupon: true } });
    expect(r.reduction?.tier).toEqual({ thresholdFen: 4000, reduceFen: 1200 });
  });

  it('checks the tiers after the member discount and says how much more to buy at list prices', () => {
    const r = priceOrder({ ...base, memberDiscountRate: 95, activity: { tiers, stackableWithCoupon: true } });
    // 5100 × 95 % = 4845 < 5000: the lower tier.
    expect(r.discountFen).toBe(500);
    expect(r.reduction?.next).toEqual({ thresholdFen: 5000, reduceFen: 1000, shortFen: 163 });
    expect(r.reduction?.message).toBe('已享满 ¥30.00 减 ¥5.00，再买 ¥1.63 可减 ¥10.00');
    const more = priceOrder({
      ...base,
      lines: [...base.lines, { goodsId: 3, qty: 1, unitPriceFen: 163 }],
      memberDiscountRate: 95,
      activity: { tiers, stackableWithCoupon: true },
    });
    expect(more.discountFen).toBe(1000);
    const less = priceOrder({
      ...base,
      lines: [...base.lines, { goodsId: 3, qty: 1, unitPriceFen: 162 }],
      memberDiscountRate: 95,
      activity: { tiers, stackableWithCoupon: true },
    });
    expect(less.discountFen).toBe(500);
  });

  it('says how far the first tier is when none is reached', () => {
    const r = priceOrder({
      ...base,
      lines: [{ goodsId: 1, qty: 1, unitPriceFen: 2500 }],
      activity: { tiers, stackableWithCoupon: false },
    });
    expect(r.discountFen).toBe(0);
    expect(r.reduction).toMatchObject({ tier: null, message: '再买 ¥5.00 可享满 ¥30.00 减 ¥5.00' });
  });
});

describe('priceOrder: coupon', () => {
  const stackable = { tiers, stackableWithCoupon: true };
  const exclusive = { tiers, stackableWithCoupon: false };

  it('a cash coupon comes off after 满减 when stackable, spread over the lines', () => {
    const r = priceOrder({
      ...base,
      activity: stackable,
      coupon: { kind: 'cash', valueFen: 300, thresholdFen: 3000 },
    });
    expect(r.coupon).toEqual({ applied: true, kind: 'cash', amountFen: 300, message: '代金券减 ¥3.00' });
    expect(r.couponFen).toBe(300);
    expect(r.lines.map((l) => l.couponFen)).toEqual([212, 88]);
    expect(r.payableFen).toBe(5800 - 1000 - 300);
  });

  it('is refused when the 满减 that applies is not stackable', () => {
    const r = priceOrder({ ...base, activity: exclusive, coupon: { kind: 'cash', valueFen: 300 } });
    expect(r.coupon).toMatchObject({ applied: false, reason: 'not_stackable' });
    expect(r.coupon?.message).toBe('本单已享满减，该满减活动不与优惠券同享');
    expect(r.couponFen).toBe(0);
    expect(r.payableFen).toBe(4800);
  });

  it('is allowed beside a non-stackable activity whose tiers the goods do not reach', () => {
    const r = priceOrder({
      ...base,
      lines: [{ goodsId: 1, qty: 1, unitPriceFen: 2500 }],
      activity: exclusive,
      coupon: { kind: 'cash', valueFen: 300 },
    });
    expect(r.coupon).toMatchObject({ applied: true, amountFen: 300 });
  });

  it('checks its threshold after 满减', () => {
    // 5100 − 1000 = 4100 < 4500, though the goods alone reach it.
    const r = priceOrder({
      ...base,
      activity: stackable,
      coupon: { kind: 'cash', valueFen: 300, thresholdFen: 4500 },
    });
    expect(r.coupon).toEqual({
      applied: false,
      kind: 'cash',
      reason: 'below_threshold',
      message: '满减后商品金额 ¥41.00 未达到优惠券门槛 ¥45.00',
    });
    expect(r.couponFen).toBe(0);
    const alone = priceOrder({ ...base, coupon: { kind: 'cash', valueFen: 300, thresholdFen: 4500 } });
    expect(alone.couponFen).toBe(300);
  });

  it('a discount coupon takes its rate off the goods left after 满减, rounded half up', () => {
    const r = priceOrder({ ...base, activity: stackable, coupon: { kind: 'discount', rate: 85 } });
    // 4100 × 85 % = 3485 → 615 off.
    expect(r.coupon).toEqual({
      applied: true,
      kind: 'discount',
      amountFen: 615,
      message: '折扣券 85 折，减 ¥6.15',
    });
    const nine = priceOrder({ ...base, coupon: { kind: 'discount', rate: 90 } });
    expect(nine.coupon?.message).toBe('折扣券 9 折，减 ¥5.10');
  });

  it('an item coupon comes off its own goods only, at most what they have left', () => {
    const r = priceOrder({ ...base, coupon: { kind: 'item', goodsId: 2, valueFen: 400 } });
    expect(r.couponFen).toBe(400);
    expect(r.lines.map((l) => l.couponFen)).toEqual([0, 400]);
    const capped = priceOrder({ ...base, coupon: { kind: 'item', goodsId: 2, valueFen: 9999 } });
    expect(capped.couponFen).toBe(1500);
    expect(capped.lines[1]?.payableFen).toBe(0);
  });

  it('an item coupon whose goods are not in the cart is refused', () => {
    const r = priceOrder({ ...base, coupon: { kind: 'item', goodsId: 9, valueFen: 400 } });
    expect(r.coupon).toEqual({
      applied: false,
      kind: 'item',
      reason: 'item_not_in_cart',
      message: '单品券指定的商品不在购物车中',
    });
  });

  it('is refused when the goods it would discount already cost nothing', () => {
    const r = priceOrder({
      lines: [{ goodsId: 1, qty: 1, unitPriceFen: 0 }],
      packingFen: 0,
      deliveryFen: 0,
      coupon: { kind: 'cash', valueFen: 300 },
    });
    expect(r.coupon).toMatchObject({ applied: false, reason: 'nothing_to_discount' });
  });

  it('never takes more than the goods', () => {
    const r = priceOrder({ ...base, coupon: { kind: 'cash', valueFen: 1_000_000 } });
    expect(r.couponFen).toBe(5100);
    expect(r.payableFen).toBe(700);
  });
});

describe('priceOrder: points', () => {
  it('spends points at one fen each, spread over the lines', () => {
    const r = priceOrder({ ...base, points: { spend: 1000, maxSharePercent: 50 } });
    expect(r).toMatchObject({ pointsFen: 1000, pointsUsed: 1000, payableFen: 4800 });
    expect(r.points).toEqual({
      requested: 1000,
      used: 1000,
      fen: 1000,
      limitedBy: null,
      message: '本单使用 1000 积分，抵扣 ¥10.00',
    });
    expect(r.lines.map((l) => l.pointsFen)).toEqual([706, 294]);
  });

  it('caps them at the share of the order before points (packing and delivery included)', () => {
    const r = priceOrder({ ...base, points: { spend: 10_000, maxSharePercent: 50 } });
    expect(r.pointsFen).toBe(2900);
    expect(r.points).toMatchObject({ used: 2900, limitedBy: 'share' });
    expect(r.points?.message).toBe('积分最多抵扣订单金额的 50%，本单使用 2900 积分，抵扣 ¥29.00');
  });

  it('caps them at the goods left to pay', () => {
    const r = priceOrder({
      lines: [{ goodsId: 1, qty: 1, unitPriceFen: 100 }],
      packingFen: 0,
      deliveryFen: 1000,
      points: { spend: 10_000, maxSharePercent: 100 },
    });
    expect(r.points).toMatchObject({ used: 100, fen: 100, limitedBy: 'remaining' });
    expect(r.payableFen).toBe(1000);
  });

  it('come after every other discount', () => {
    const r = priceOrder({
      ...base,
      memberDiscountRate: 95,
      activity: { tiers, stackableWithCoupon: true },
      coupon: { kind: 'cash', valueFen: 300 },
      points: { spend: 100_000, maxSharePercent: 50 },
    });
    // goods 5100 − member 255 − 满减 500 − coupon 300 = 4045; + 700 = 4745; 50 % → 2372.
    expect(r.pointsFen).toBe(2372);
    expect(r.payableFen).toBe(4745 - 2372);
  });
});

describe('priceOrder: lines and refunds', () => {
  it('every line carries its share of each discount; line payables + fees = payable', () => {
    const r = priceOrder({
      lines: [
        { goodsId: 1, qty: 1, unitPriceFen: 1 },
        { goodsId: 2, qty: 1, unitPriceFen: 1 },
        { goodsId: 3, qty: 1, unitPriceFen: 1 },
      ],
      packingFen: 50,
      deliveryFen: 0,
      coupon: { kind: 'cash', valueFen: 2 },
    });
    // Equal remainders: the earlier lines get the fen.
    expect(r.lines.map((l) => l.couponFen)).toEqual([1, 1, 0]);
    expect(r.lines.reduce((s, l) => s + l.payableFen, 0) + r.packingFen + r.deliveryFen).toBe(r.payableFen);
  });

  it('a zero-priced line gets no discount and stays at 0', () => {
    const r = priceOrder({
      lines: [
        { goodsId: 1, qty: 3, unitPriceFen: 0 },
        { goodsId: 2, qty: 1, unitPriceFen: 999 },
      ],
      packingFen: 0,
      deliveryFen: 0,
      memberDiscountRate: 88,
      coupon: { kind: 'discount', rate: 77 },
    });
    expect(r.lines[0]).toMatchObject({ discountFen: 0, payableFen: 0 });
  });

  it('stays exact for amounts past what plain numbers multiply exactly', () => {
    const r = priceOrder({
      lines: [
        { goodsId: 1, qty: 999, unitPriceFen: 333_333_333 },
        { goodsId: 2, qty: 7, unitPriceFen: 123_456_789 },
      ],
      packingFen: 0,
      deliveryFen: 0,
      coupon: { kind: 'discount', rate: 33 },
    });
    expect(r.lines.reduce((s, l) => s + l.couponFen, 0)).toBe(r.couponFen);
    expect(r.lines.every((l) => Number.isSafeInteger(l.payableFen) && l.payableFen >= 0)).toBe(true);
  });
});

describe('priceOrder: bad input throws PricingInputError', () => {
  const bad: [string, PriceInput, string][] = [
    ['qty 0', { ...base, lines: [{ goodsId: 1, qty: 0, unitPriceFen: 100 }] }, 'lines[0].qty'],
    ['fractional qty', { ...base, lines: [{ goodsId: 1, qty: 1.5, unitPriceFen: 100 }] }, 'lines[0].qty'],
    [
      'negative price',
      { ...base, lines: [{ goodsId: 1, qty: 1, unitPriceFen: -1 }] },
      'lines[0].unitPriceFen',
    ],
    ['fractional fen', { ...base, packingFen: 0.5 }, 'packingFen'],
    ['NaN', { ...base, deliveryFen: Number.NaN }, 'deliveryFen'],
    ['member rate over 100', { ...base, memberDiscountRate: 120 }, 'memberDiscountRate'],
    [
      'negative reduction',
      { ...base, activity: { tiers: [{ thresholdFen: 100, reduceFen: -5 }], stackableWithCoupon: true } },
      'activity.tiers[0].reduceFen',
    ],
    ['coupon rate', { ...base, coupon: { kind: 'discount', rate: 85.5 } }, 'coupon.rate'],
    ['negative coupon', { ...base, coupon: { kind: 'cash', valueFen: -300 } }, 'coupon.valueFen'],
    ['negative points', { ...base, points: { spend: -1, maxSharePercent: 50 } }, 'points.spend'],
    ['share over 100', { ...base, points: { spend: 1, maxSharePercent: 101 } }, 'points.maxSharePercent'],
    [
      'too large an order',
      { ...base, lines: [{ goodsId: 1, qty: 999, unitPriceFen: 9_000_000_000_000 }] },
      'lines[0].unitPriceFen',
    ],
  ];
  it.each(bad)('%s', (_name, input, path) => {
    expect(() => priceOrder(input)).toThrow(PricingInputError);
    try {
      priceOrder(input);
    } catch (error) {
      expect((error as PricingInputError).path).toBe(path);
    }
  });
});
