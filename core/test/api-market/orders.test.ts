import { describe, expect, it } from 'vitest';
import { planApiRefund, planPurchase, purchaseShortfall } from '../../src/index';

const NOW = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
const plan = {
  name: '1 万次',
  priceFen: 9900,
  calls: 10_000,
  periodDays: 30,
  status: 'enabled',
  apiStatus: 'enabled',
};

describe('buying an API plan', () => {
  it('prices the order at the plan and credits its calls for its period', () => {
    expect(planPurchase(plan, NOW)).toEqual({
      ok: true,
      amountFen: 9900,
      calls: 10_000,
      expiresAt: NOW + 30 * DAY,
    });
  });

  it('refuses a disabled plan or API in Chinese', () => {
    expect(planPurchase({ ...plan, status: 'disabled' }, NOW)).toEqual({
      ok: false,
      message: '套餐「1 万次」已停用，不能购买',
    });
    expect(planPurchase({ ...plan, apiStatus: 'disabled' }, NOW)).toMatchObject({ ok: false });
  });

  it('says a short balance in yuan', () => {
    expect(purchaseShortfall(9900, 9900)).toBeNull();
    expect(purchaseShortfall(100, 9900)).toBe('余额不足：当前余额 ¥1.00，需要 ¥99.00');
  });
});

describe('refunding an API order', () => {
  const order = { status: 'paid', amountFen: 9900, calls: 10_000, remaining: 10_000, expiresAt: NOW + DAY };

  it('refunds all of an untouched quota', () => {
    expect(planApiRefund(order, NOW)).toEqual({ ok: true, refundFen: 9900, reclaimedCalls: 10_000 });
  });

  it('refunds the unused share, rounded down to the fen', () => {
    // 3 333 of 10 000 unused: 9900 × 0.3333 = 3299.67 → 3299.
    expect(planApiRefund({ ...order, remaining: 3333 }, NOW)).toEqual({
      ok: true,
      refundFen: 3299,
      reclaimedCalls: 3333,
    });
    expect(planApiRefund({ ...order, remaining: 1 }, NOW)).toMatchObject({ refundFen: 0 });
  });

  it('refuses an expired, used-up, unpaid or refunded order', () => {
    expect(planApiRefund({ ...order, expiresAt: NOW }, NOW)).toEqual({
      ok: false,
      message: '调用额度已过期，不能退款',
    });
    expect(planApiRefund({ ...order, remaining: 0 }, NOW)).toEqual({
      ok: false,
      message: '调用额度已用完，没有可退的金额',
    });
    expect(planApiRefund({ ...order, status: 'unpaid' }, NOW)).toEqual({
      ok: false,
      message: '只有已支付的订单可以退款',
    });
    expect(planApiRefund({ ...order, status: 'refunded' }, NOW)).toEqual({
      ok: false,
      message: '订单已退款',
    });
    expect(planApiRefund({ ...order, remaining: null }, NOW)).toMatchObject({ ok: false });
  });

  it('never refunds more than was paid, even for a quota topped up by hand', () => {
    expect(planApiRefund({ ...order, remaining: 50_000 }, NOW)).toEqual({
      ok: true,
      refundFen: 9900,
      reclaimedCalls: 50_000,
    });
  });
});
