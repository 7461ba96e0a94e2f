/**
 * What the order domain calls in its transactions: 订单满额 and 首单 rules firing, a referral's
 * rewards given once, a coupon checked for a cart and used by exactly one order.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  couponForOrder,
  fireCouponRules,
  rewardReferral,
  useCoupon,
} from '../../src/domain/marketing/index.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { couponsOf, createTemplate, createUsers } from './helpers.js';

describe.each(DB_KINDS)('order hooks on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let users: number[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    users = await createUsers(t, 6, 'buyer');
  });
  afterAll(async () => t?.close());

  /** In a transaction of the app's database, as the order domain calls them. */
  const inTransaction = <T>(work: (trx: AnyDb) => Promise<T>): Promise<T> =>
    t.app.db.transaction().execute((trx) => work(trx as AnyDb));

  it('fires 订单满额 rules whose threshold the amount reaches, and 首单 rules on the first order', async () => {
    const back = await createTemplate(api, { name: '满额返券', perUserLimit: 10 });
    const rule = await api.post('/api/admin/couponRules', {
      name: '满 88 返 5',
      trigger: 'orderAmount',
      thresholdFen: 8800,
      templateId: back,
      qty: 1,
    });
    const first = await api.post('/api/admin/couponRules', {
      name: '首单礼',
      trigger: 'firstOrder',
      templateId: back,
      qty: 2,
    });
    expect([rule.status, first.status]).toEqual([200, 200]);
    const buyer = users[0] as number;
    const at = t.clock.current;
    const below = await inTransaction((trx) =>
      fireCouponRules(trx, buyer, { kind: 'orderAmount', amountFen: 8799, at }),
    );
    expect(below).toEqual([]);
    const reached = await inTransaction((trx) =>
      fireCouponRules(trx, buyer, { kind: 'orderAmount', amountFen: 8800, at }),
    );
    expect(reached).toMatchObject([{ ruleId: rule.body.data.id, issued: true }]);
    const firstOrder = await inTransaction((trx) => fireCouponRules(trx, buyer, { kind: 'firstOrder', at }));
    expect(firstOrder).toMatchObject([{ ruleId: first.body.data.id, issued: true }]);
    expect(await couponsOf(api, `userId=${buyer}&templateId=${back}`)).toHaveLength(3);
  });

  it('gives a referral’s rewards once, with the inviter’s 邀请成功 rules', async () => {
    const [inviter, invitee] = [users[1] as number, users[2] as number];
    const inviterReward = await createTemplate(api, { name: '邀请人 8 元', perUserLimit: 10 });
    const inviteeReward = await createTemplate(api, { name: '新朋友 8 元', perUserLimit: 10 });
    const campaign = await api.post('/api/admin/referralCampaigns', {
      name: '邀请好友 各得 8 元',
      inviterRewardId: inviterReward,
      inviteeRewardId: inviteeReward,
      startAt: '2024-12-01T00:00:00.000Z',
      endAt: '2025-02-01T00:00:00.000Z',
    });
    expect(campaign.status, campaign.text).toBe(200);
    await api.post('/api/admin/couponRules', {
      name: '邀请成功加赠',
      trigger: 'referral',
      templateId: inviterReward,
      qty: 1,
    });
    await t.app.resources.insertRows(getResource('referrals'), [
      { campaignId: campaign.body.data.id, inviterId: inviter, inviteeId: invitee },
    ]);
    const reward = await inTransaction((trx) => rewardReferral(trx, invitee, t.clock.current));
    expect(reward).toMatchObject({ inviterId: inviter, inviteeId: invitee });
    expect(reward?.inviterCoupons).toHaveLength(1);
    expect(reward?.inviteeCoupons).toHaveLength(1);
    expect(reward?.rules).toMatchObject([{ issued: true }]);
    expect(await inTransaction((trx) => rewardReferral(trx, invitee, t.clock.current))).toBeNull();
    expect(await couponsOf(api, `userId=${inviter}&templateId=${inviterReward}`)).toHaveLength(2);
    expect(await couponsOf(api, `userId=${invitee}&templateId=${inviteeReward}`)).toHaveLength(1);
  });

  it('checks a held coupon for a cart and lets exactly one of two orders use it', async () => {
    const [store] = await t.app.resources.insertRows(getResource('stores'), [
      { name: '券店', phone: '010-33333333', address: '北京市西城区 3 号', status: 'open' },
    ]);
    const template = await createTemplate(api, { name: '本店 5 元', storeIds: [store] });
    const buyer = users[3] as number;
    const issued = await api.post(`/api/admin/couponTemplates/${template}/issue`, { userIds: [buyer] });
    expect(issued.status, issued.text).toBe(200);
    const [held] = await couponsOf(api, `userId=${buyer}&templateId=${template}`);
    const userCouponId = held?.id as number;
    const now = t.clock.current;
    const ok = await inTransaction((trx) =>
      couponForOrder(trx, { userCouponId, userId: buyer, storeId: store as number, goodsIds: [1], now }),
    );
    expect(ok).toEqual({ ok: true, coupon: { kind: 'cash', valueFen: 500, thresholdFen: 3000 } });
    const elsewhere = await inTransaction((trx) =>
      couponForOrder(trx, { userCouponId, userId: buyer, storeId: 999, goodsIds: [1], now }),
    );
    expect(elsewhere).toMatchObject({ ok: false, message: '该优惠券不适用于本门店' });
    const stranger = await inTransaction((trx) =>
      couponForOrder(trx, {
        userCouponId,
        userId: users[4] as number,
        storeId: store as number,
        goodsIds: [1],
        now,
      }),
    );
    expect(stranger).toMatchObject({ ok: false, message: '这不是您的优惠券' });

    const uses = await Promise.allSettled(
      [101, 102].map((orderId) =>
        inTransaction((trx) => useCoupon(trx, { userCouponId, userId: buyer, orderId, now })),
      ),
    );
    expect(uses.map((u) => u.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = uses.find((u) => u.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.message).toBe('该优惠券已使用或已过期');
    const [after] = await couponsOf(api, `userId=${buyer}&templateId=${template}`);
    expect(after).toMatchObject({ status: 'used' });
    const used = await inTransaction((trx) =>
      couponForOrder(trx, { userCouponId, userId: buyer, storeId: store as number, goodsIds: [1], now }),
    );
    expect(used).toMatchObject({ ok: false, reason: 'used', message: '该优惠券已使用' });
  });
});
