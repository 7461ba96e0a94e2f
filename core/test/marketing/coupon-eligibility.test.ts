/**
 * Whether a coupon a user holds may be used on a cart: each refusal with its reason and Chinese
 * message, the order in which they are checked, and the pricing input of an eligible one.
 */
import { describe, expect, it } from 'vitest';
import {
  type CartFacts,
  type CouponTemplateFacts,
  couponEligibility,
  couponInputOf,
  priceOrder,
  type UserCouponFacts,
} from '../../src/index';

const NOW = '2025-05-10T04:00:00.000Z'; // 12:00 China time
const cash: CouponTemplateFacts = {
  kind: 'cash',
  valueFen: 500,
  thresholdFen: 3000,
  validity: 'relative',
  validDays: 7,
  status: 'enabled',
};
const held: UserCouponFacts = {
  userId: 7,
  status: 'unused',
  issuedAt: '2025-05-08T02:00:00.000Z',
  expiresAt: '2025-05-14T16:00:00.000Z',
};
const cart: CartFacts = { storeId: 1, goodsIds: [11, 12], now: NOW, userId: 7 };

describe('couponEligibility', () => {
  const cases: [string, UserCouponFacts, CouponTemplateFacts, Partial<CartFacts>, string | null, string?][] =
    [
      ['an unused, current coupon of an enabled template', held, cash, {}, null],
      ['another user’s coupon', held, cash, { userId: 8 }, 'not_owner', '这不是您的优惠券'],
      ['a used one', { ...held, status: 'used' }, cash, {}, 'used', '该优惠券已使用'],
      ['one marked expired', { ...held, status: 'expired' }, cash, {}, 'expired', '该优惠券已过期'],
      [
        'one whose expiry has passed though the timer has not marked it',
        { ...held, expiresAt: '2025-05-10T04:00:00.000Z' },
        cash,
        {},
        'expired',
        '该优惠券已过期',
      ],
      ['one of a disabled template', held, { ...cash, status: 'disabled' }, {}, 'disabled', '该优惠券已停用'],
      [
        'a 固定日期 coupon before its start',
        { ...held, expiresAt: '2025-06-01T00:00:00.000Z' },
        {
          ...cash,
          validity: 'fixed',
          validFrom: '2025-05-11T00:00:00.000Z',
          validTo: '2025-06-01T00:00:00.000Z',
        },
        {},
        'not_started',
        '该优惠券未到生效时间',
      ],
      [
        'a coupon for other stores',
        held,
        { ...cash, storeIds: [2, 3] },
        {},
        'wrong_store',
        '该优惠券不适用于本门店',
      ],
      ['a coupon for this store among others', held, { ...cash, storeIds: [3, 1] }, {}, null],
      [
        'an item coupon whose goods are not in the cart',
        held,
        { ...cash, kind: 'item', goodsId: 99 },
        {},
        'item_not_in_cart',
        '购物车中没有该优惠券指定的商品',
      ],
      [
        'a 代金券 saved without its 面额 (around the definition’s rules)',
        held,
        { ...cash, valueFen: null },
        {},
        'incomplete',
        '该优惠券设置不完整，暂不能使用',
      ],
    ];
  it.each(cases)('%s', (_what, coupon, template, over, reason, message) => {
    const result = couponEligibility(coupon, template, { ...cart, ...over });
    if (reason === null) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, reason, message });
  });

  it('checks in order: a used coupon of a disabled template for another store reads 已使用', () => {
    const result = couponEligibility(
      { ...held, status: 'used' },
      { ...cash, status: 'disabled', storeIds: [9] },
      cart,
    );
    expect(result).toMatchObject({ ok: false, reason: 'used' });
  });

  it('answers the pricing input, whose threshold pricing then checks', () => {
    const result = couponEligibility(held, cash, cart);
    expect(result).toEqual({ ok: true, coupon: { kind: 'cash', valueFen: 500, thresholdFen: 3000 } });
    if (!result.ok) return;
    const below = priceOrder({
      lines: [{ goodsId: 11, qty: 1, unitPriceFen: 2000 }],
      packingFen: 0,
      deliveryFen: 0,
      coupon: result.coupon,
    });
    expect(below.coupon).toMatchObject({ applied: false, reason: 'below_threshold' });
    const above = priceOrder({
      lines: [{ goodsId: 11, qty: 2, unitPriceFen: 2000 }],
      packingFen: 0,
      deliveryFen: 0,
      coupon: result.coupon,
    });
    expect(above.couponFen).toBe(500);
  });

  it('gives each kind its pricing input', () => {
    expect(couponInputOf({ kind: 'discount', rate: 85, thresholdFen: null })).toEqual({
      kind: 'discount',
      rate: 85,
      thresholdFen: 0,
    });
    expect(couponInputOf({ kind: 'item', goodsId: 11, valueFen: 300 })).toEqual({
      kind: 'item',
      goodsId: 11,
      valueFen: 300,
      thresholdFen: 0,
    });
    expect(couponInputOf({ kind: 'item', goodsId: null, valueFen: 300 })).toBeNull();
    expect(couponInputOf({ kind: 'discount', rate: 100 })).toBeNull();
  });

  it('lets a 固定日期 coupon be used from its start', () => {
    const template: CouponTemplateFacts = {
      ...cash,
      validity: 'fixed',
      validFrom: NOW,
      validTo: '2025-06-01T00:00:00.000Z',
    };
    expect(couponEligibility({ ...held, expiresAt: template.validTo }, template, cart).ok).toBe(true);
  });
});
