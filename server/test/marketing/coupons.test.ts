/**
 * Coupons through the API: an operator's 发放 (core's issue rule in one transaction, the total
 * never passed under concurrency), rules firing when an account is created, a rule's issued
 * coupons, and the definitions' cross-field rules answered as 422 with Chinese messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { CASH, couponsOf, createTemplate, createUsers, template } from './helpers.js';

describe.each(DB_KINDS)('coupons on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let users: number[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    users = await createUsers(t, 30);
  });
  afterAll(async () => t?.close());

  const issue = (id: number, userIds: number[]) =>
    api.post(`/api/admin/couponTemplates/${id}/issue`, { userIds });

  describe('发放 (issue to users)', () => {
    it('gives each user one coupon with its expiry in China days, and counts them on the template', async () => {
      const id = await createTemplate(api, { name: '七天券', perUserLimit: 2 });
      // The test clock: 2025-01-01 16:00 China time; 7 days → until 2025-01-07 24:00 China time.
      const res = await issue(id, [users[0] as number, users[1] as number]);
      expect(res.status, res.text).toBe(200);
      expect(res.body.message).toBe('发放成功');
      expect(res.body.data.issuedQty).toBe(2);
      const rows = await couponsOf(api, `templateId=${id}`);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({
          source: 'manual',
          status: 'unused',
          issuedAt: new Date(t.clock.current).toISOString(),
          expiresAt: '2025-01-07T16:00:00.000Z',
        });
      }
      const audit = await api.get(`/api/admin/auditLogs?action=couponTemplates.issue&recordId=${id}`);
      expect(audit.body.data.results[0].after).toMatchObject({
        issuedQty: 2,
        issuedTo: [users[0], users[1]],
      });
    });

    it('refuses past 每人限领 naming the users, past the total, and for a disabled template — writing nothing', async () => {
      const id = await createTemplate(api, { name: '限领券', totalQty: 3, perUserLimit: 1 });
      expect((await issue(id, [users[2] as number])).status).toBe(200);
      const again = await issue(id, [users[2] as number, users[3] as number]);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('每人限领 1 张，该用户已领到上限（c3）');
      const tooMany = await issue(
        id,
        [4, 5, 6].map((i) => users[i] as number),
      );
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.message).toBe('该优惠券只剩 2 张，不够发放 3 张');
      expect((await template(api, id)).issuedQty).toBe(1);
      expect(await couponsOf(api, `templateId=${id}`)).toHaveLength(1);

      const off = await createTemplate(api, { name: '停用券', status: 'disabled' });
      const refused = await issue(off, [users[0] as number]);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('当前状态不能执行此操作');
    });

    it('refuses unknown users and an empty list with per-field messages', async () => {
      const id = await createTemplate(api, { name: '校验券' });
      const unknown = await issue(id, [users[0] as number, 999_999]);
      expect(unknown.status).toBe(422);
      expect(unknown.body.data.fields).toEqual({ userIds: '所选的用户不存在：#999999' });
      const empty = await issue(id, []);
      expect(empty.status).toBe(422);
      expect(empty.body.data.fields.userIds).toBe('最少1个发放给');
    });

    it('never passes the total: 20 issues at once against 发行总量 10 → exactly 10 succeed', async () => {
      const id = await createTemplate(api, { name: '限量券', totalQty: 10, perUserLimit: 1 });
      const answers = await Promise.all(users.slice(10, 30).map((user) => issue(id, [user])));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(10);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.message).toBe('该优惠券已发完');
      expect((await template(api, id)).issuedQty).toBe(10);
      expect(await couponsOf(api, `templateId=${id}`)).toHaveLength(10);
    });

    it('never passes 每人限领 either: 10 issues to one user at once with a limit of 3 → exactly 3', async () => {
      const id = await createTemplate(api, { name: '每人三张', perUserLimit: 3 });
      const user = users[9] as number;
      const answers = await Promise.all(Array.from({ length: 10 }, () => issue(id, [user])));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(await couponsOf(api, `templateId=${id}&userId=${user}`)).toHaveLength(3);
    });
  });

  describe('rules', () => {
    it('fire on a new account: enabled register rules within their period issue their coupons', async () => {
      const welcome = await createTemplate(api, { name: '新人券', perUserLimit: 5 });
      const rule = await api.post('/api/admin/couponRules', {
        name: '注册送两张',
        trigger: 'register',
        templateId: welcome,
        qty: 2,
      });
      expect(rule.status, rule.text).toBe(200);
      const ended = await api.post('/api/admin/couponRules', {
        name: '已结束的注册礼',
        trigger: 'register',
        templateId: welcome,
        qty: 1,
        startAt: '2024-01-01T00:00:00.000Z',
        endAt: '2024-12-31T16:00:00.000Z',
      });
      expect(ended.status, ended.text).toBe(200);
      await api.post('/api/admin/couponRules', {
        name: '首单礼',
        trigger: 'firstOrder',
        templateId: welcome,
        qty: 1,
      });

      const created = await api.post('/api/admin/users', {
        username: 'newcomer',
        password: 'Newcomer#2025',
        roles: [],
      });
      expect(created.status, created.text).toBe(200);
      const mine = await couponsOf(api, `userId=${created.body.data.id}`);
      expect(mine).toHaveLength(2);
      expect(mine.every((c) => c.source === 'rule' && c.ruleId === rule.body.data.id)).toBe(true);

      // A rule's 发放记录: its coupons, by the rule.
      expect(await couponsOf(api, `ruleId=${rule.body.data.id}`)).toHaveLength(2);
      expect(await couponsOf(api, `ruleId=${ended.body.data.id}`)).toHaveLength(0);
    });

    it('skip a rule whose coupon is sold out without failing the account', async () => {
      const scarce = await createTemplate(api, { name: '只有一张', totalQty: 1 });
      await api.post('/api/admin/couponRules', {
        name: '限量注册礼',
        trigger: 'register',
        templateId: scarce,
        qty: 1,
      });
      const first = await api.post('/api/admin/users', {
        username: 'early',
        password: 'Early#2025x',
        roles: [],
      });
      const second = await api.post('/api/admin/users', {
        username: 'late',
        password: 'Late#2025xx',
        roles: [],
      });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(await couponsOf(api, `templateId=${scarce}`)).toHaveLength(1);
    });
  });

  describe('definition rules', () => {
    it('refuse a 代金券 with no 面额 and 固定日期 with no dates, per field in Chinese', async () => {
      const res = await api.post('/api/admin/couponTemplates', {
        ...CASH,
        valueFen: null,
        validity: 'fixed',
      });
      expect(res.status).toBe(422);
      expect(res.body.data.fields).toEqual({
        valueFen: '代金券须填写面额（大于 0）',
        validFrom: '固定日期须填写生效时间',
        validTo: '固定日期须填写失效时间',
      });
    });

    it('check an update against the stored row: clearing 面额 of a 代金券, or an end before the start', async () => {
      const id = await createTemplate(api, { name: '改面额' });
      const cleared = await api.patch(`/api/admin/couponTemplates/${id}`, { valueFen: null });
      expect(cleared.status).toBe(422);
      expect(cleared.body.data.fields).toEqual({ valueFen: '代金券须填写面额（大于 0）' });
      // Switching to a 折扣券 needs its 折扣, and then 面额 may go.
      const discount = await api.patch(`/api/admin/couponTemplates/${id}`, {
        kind: 'discount',
        valueFen: null,
      });
      expect(discount.body.data.fields).toEqual({ rate: '折扣券须填写折扣' });
      const ok = await api.patch(`/api/admin/couponTemplates/${id}`, {
        kind: 'discount',
        valueFen: null,
        rate: 85,
      });
      expect(ok.status, ok.text).toBe(200);

      const rule = await api.post('/api/admin/couponRules', {
        name: '满额送',
        trigger: 'orderAmount',
        templateId: id,
        qty: 1,
      });
      expect(rule.status).toBe(422);
      expect(rule.body.data.fields).toEqual({ thresholdFen: '订单满额须填写满额门槛（大于 0）' });

      const discountActivity = await api.post('/api/admin/discounts', {
        name: '倒置的满减',
        tiers: [{ thresholdFen: 3000, reduceFen: 500 }],
        startAt: '2025-05-05T00:00:00.000Z',
        endAt: '2025-05-01T00:00:00.000Z',
      });
      expect(discountActivity.status).toBe(422);
      expect(discountActivity.body.data.fields).toEqual({ endAt: '结束时间须晚于开始时间' });
      const tiers = await api.post('/api/admin/discounts', {
        name: '乱序满减',
        tiers: [
          { thresholdFen: 5000, reduceFen: 800 },
          { thresholdFen: 3000, reduceFen: 3000 },
        ],
        startAt: '2025-05-01T00:00:00.000Z',
        endAt: '2025-05-05T00:00:00.000Z',
      });
      expect(tiers.status).toBe(422);
      expect(tiers.body.data.fields.tiers).toBe('减免金额须小于门槛金额');
    });
  });
});
