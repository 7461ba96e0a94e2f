/** Which 发券规则 fire for an event: trigger, enabled, within startAt..endAt, 满额 threshold. */
import { describe, expect, it } from 'vitest';
import { type CouponRuleFacts, referralCampaignActive, rulesFiring } from '../../src/index';

const AT = '2025-05-10T04:00:00.000Z';
const rule = (over: Partial<CouponRuleFacts>): CouponRuleFacts => ({
  id: 1,
  trigger: 'register',
  templateId: 1,
  qty: 1,
  status: 'enabled',
  ...over,
});

describe('rulesFiring', () => {
  const rules = [
    rule({ id: 1, trigger: 'register' }),
    rule({ id: 2, trigger: 'register', status: 'disabled' }),
    rule({ id: 3, trigger: 'register', startAt: '2025-05-11T00:00:00Z' }),
    rule({ id: 4, trigger: 'register', endAt: AT }),
    rule({ id: 5, trigger: 'register', startAt: AT, endAt: '2025-05-11T00:00:00Z' }),
    rule({ id: 6, trigger: 'firstOrder' }),
    rule({ id: 7, trigger: 'orderAmount', thresholdFen: 5000 }),
    rule({ id: 8, trigger: 'orderAmount', thresholdFen: 10_000 }),
    rule({ id: 9, trigger: 'orderAmount', thresholdFen: null }),
    rule({ id: 10, trigger: 'referral' }),
    rule({ id: 11, trigger: 'birthday' }),
  ];
  const ids = (event: Parameters<typeof rulesFiring>[1]) => rulesFiring(rules, event).map((r) => r.id);

  it('fires enabled rules of the event’s trigger within their period (start inclusive, end exclusive)', () => {
    expect(ids({ kind: 'register', at: AT })).toEqual([1, 5]);
  });

  it('fires 首单 and 邀请 rules on their events only', () => {
    expect(ids({ kind: 'firstOrder', at: AT })).toEqual([6]);
    expect(ids({ kind: 'referral', at: AT })).toEqual([10]);
  });

  it('fires 订单满额 rules whose threshold the amount reaches, and none without a threshold', () => {
    expect(ids({ kind: 'orderAmount', amountFen: 4999, at: AT })).toEqual([]);
    expect(ids({ kind: 'orderAmount', amountFen: 5000, at: AT })).toEqual([7]);
    expect(ids({ kind: 'orderAmount', amountFen: 12_000, at: AT })).toEqual([7, 8]);
  });
});

describe('referralCampaignActive', () => {
  it('holds for an enabled campaign within its period (end exclusive)', () => {
    const campaign = { status: 'enabled', startAt: '2025-05-01T00:00:00Z', endAt: AT };
    expect(referralCampaignActive(campaign, '2025-05-05T00:00:00Z')).toBe(true);
    expect(referralCampaignActive(campaign, AT)).toBe(false);
    expect(referralCampaignActive(campaign, '2025-04-30T23:59:59Z')).toBe(false);
    expect(referralCampaignActive({ ...campaign, status: 'disabled' }, '2025-05-05T00:00:00Z')).toBe(false);
  });
});
