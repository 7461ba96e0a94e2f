/** When coupons of a template may be issued: status, its end, what is left, and 每人限领. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CouponTemplateFacts,
  exchangeBatchDecision,
  issueDecision,
  remainingQty,
} from '../../src/index';

const NOW = '2025-05-10T04:00:00.000Z';
const template: CouponTemplateFacts = {
  kind: 'cash',
  valueFen: 500,
  validity: 'relative',
  validDays: 7,
  totalQty: 10,
  issuedQty: 8,
  perUserLimit: 2,
  status: 'enabled',
};
const one = (held = 0) => ({ perUser: 1, users: [{ userId: 1, held }], now: NOW });

describe('issueDecision', () => {
  it('issues while the template has enough left and the user is under the limit', () => {
    expect(issueDecision(template, one())).toEqual({ ok: true });
    expect(
      issueDecision(template, {
        perUser: 1,
        users: [
          { userId: 1, held: 1 },
          { userId: 2, held: 0 },
        ],
        now: NOW,
      }),
    ).toEqual({ ok: true });
  });

  it('refuses a disabled template', () => {
    expect(issueDecision({ ...template, status: 'disabled' }, one())).toMatchObject({
      ok: false,
      reason: 'disabled',
      message: '该优惠券已停用，不能发放',
    });
  });

  it('refuses a 固定日期 template whose end has passed, not one that has not started', () => {
    const fixed = { ...template, validity: 'fixed' as const, validFrom: '2025-06-01T00:00:00Z' };
    expect(issueDecision({ ...fixed, validTo: NOW }, one())).toMatchObject({
      reason: 'expired',
      message: '该优惠券已过有效期，不能发放',
    });
    expect(issueDecision({ ...fixed, validTo: '2025-07-01T00:00:00Z' }, one())).toEqual({ ok: true });
  });

  it('refuses more than is left, saying how many are', () => {
    const three = { perUser: 1, users: [1, 2, 3].map((userId) => ({ userId, held: 0 })), now: NOW };
    expect(issueDecision(template, three)).toMatchObject({
      reason: 'sold_out',
      message: '该优惠券只剩 2 张，不够发放 3 张',
    });
    expect(issueDecision({ ...template, issuedQty: 10 }, one())).toMatchObject({
      reason: 'sold_out',
      message: '该优惠券已发完',
    });
    // 0 is unlimited.
    expect(issueDecision({ ...template, totalQty: 0, issuedQty: 1_000_000 }, three)).toEqual({ ok: true });
  });

  it('refuses users who would hold more than 每人限领, counting used and expired coupons too, and names them', () => {
    expect(issueDecision(template, one(2))).toMatchObject({
      reason: 'user_limit',
      message: '每人限领 2 张，该用户已领到上限',
      userIds: [1],
    });
    const rule = {
      perUser: 2,
      users: [
        { userId: 4, held: 1 },
        { userId: 5, held: 0 },
        { userId: 6, held: 1 },
      ],
      now: NOW,
    };
    expect(issueDecision({ ...template, totalQty: 0 }, rule)).toMatchObject({
      reason: 'user_limit',
      message: '每人限领 2 张，其中 2 位用户已领到上限',
      userIds: [4, 6],
    });
  });

  it('never lets what is issued pass the total (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 20 }),
        (total, issued, perUser, users) => {
          const t = { ...template, totalQty: total, issuedQty: Math.min(issued, total), perUserLimit: 100 };
          const request = {
            perUser,
            users: Array.from({ length: users }, (_, i) => ({ userId: i + 1, held: 0 })),
            now: NOW,
          };
          const decision = issueDecision(t, request);
          const after = (t.issuedQty ?? 0) + perUser * users;
          expect(decision.ok).toBe(after <= total);
          expect(remainingQty(t)).toBe(total - (t.issuedQty ?? 0));
        },
      ),
    );
  });
});

describe('exchangeBatchDecision', () => {
  it('counts unused codes against what is left of the total', () => {
    const t = { ...template, totalQty: 100, issuedQty: 40 };
    expect(exchangeBatchDecision(t, { count: 50, unusedCodes: 10, now: NOW })).toEqual({ ok: true });
    expect(exchangeBatchDecision(t, { count: 51, unusedCodes: 10, now: NOW })).toMatchObject({
      reason: 'sold_out',
      message: '该优惠券只剩 60 张，已有 10 个兑换码未兑换，最多还能生成 50 个',
    });
    expect(
      exchangeBatchDecision({ ...t, totalQty: 0 }, { count: 10_000, unusedCodes: 10, now: NOW }),
    ).toEqual({
      ok: true,
    });
  });

  it('refuses a disabled or ended template', () => {
    expect(
      exchangeBatchDecision({ ...template, status: 'disabled' }, { count: 1, unusedCodes: 0, now: NOW }),
    ).toMatchObject({
      message: '该优惠券已停用，不能生成兑换码',
    });
    expect(
      exchangeBatchDecision(
        { ...template, validity: 'fixed', validTo: NOW },
        { count: 1, unusedCodes: 0, now: NOW },
      ),
    ).toMatchObject({ message: '该优惠券已过有效期，不能生成兑换码' });
  });
});
