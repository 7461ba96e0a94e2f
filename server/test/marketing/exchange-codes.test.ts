/**
 * 兑换码 through the API: a batch generated (unguessable codes of the core format), a code and a
 * batch voided, and redemption by a signed-in user — forgiving of how the code is typed, exactly
 * once however many try at the same moment, and leaving the code unused when the coupon cannot
 * be issued.
 */
import { EXCHANGE_CODE_ALPHABET, formatExchangeCode, isExchangeCode } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs, userId } from '../resources/helpers.js';
import { couponsOf, createTemplate, template } from './helpers.js';

describe.each(DB_KINDS)('exchange codes on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let guest: Api;
  let operator: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
    operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
  });
  afterAll(async () => t?.close());

  const generate = (body: Record<string, unknown>) => api.post('/api/admin/exchangeCodes/generate', body);
  const codesOf = async (batch: string) => {
    const res = await api.get(`/api/admin/exchangeCodes?batch=${encodeURIComponent(batch)}&limit=500`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.results as { id: number; code: string; status: string; redeemedBy: number | null }[];
  };
  const redeem = (who: Api, code: unknown) => who.post('/api/me/coupons/redeem', { code });

  it('generates a batch of distinct codes in the core format and says how many', async () => {
    const templateId = await createTemplate(api, { name: '海报券', perUserLimit: 3 });
    const res = await generate({ batch: '春节海报', templateId, count: 300 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      message: '生成兑换码成功',
      data: { batch: '春节海报', templateId, count: 300 },
    });
    const codes = await codesOf('春节海报');
    expect(codes).toHaveLength(300);
    expect(new Set(codes.map((c) => c.code)).size).toBe(300);
    for (const c of codes) {
      expect(isExchangeCode(c.code)).toBe(true);
      expect(c.status).toBe('unused');
    }
    expect([...codes.map((c) => c.code).join('')].every((ch) => EXCHANGE_CODE_ALPHABET.includes(ch))).toBe(
      true,
    );
    const audit = await api.get('/api/admin/auditLogs?action=exchangeCodes.generate');
    expect(audit.body.data.results[0]).toMatchObject({
      recordId: null,
      after: { batch: '春节海报', templateId, count: 300 },
    });
  });

  it('refuses a batch past 10 000, of a disabled template, or larger than what is left of its total', async () => {
    const templateId = await createTemplate(api, { name: '限量兑换', totalQty: 5 });
    const huge = await generate({ batch: 'x', templateId, count: 10_001 });
    expect(huge.status).toBe(422);
    expect(huge.body.data.fields).toEqual({ count: '数量须在1-10000之间' });
    expect((await generate({ batch: '限量', templateId, count: 3 })).status).toBe(200);
    const over = await generate({ batch: '限量', templateId, count: 3 });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('该优惠券只剩 5 张，已有 3 个兑换码未兑换，最多还能生成 2 个');
    const off = await createTemplate(api, { name: '停用兑换', status: 'disabled' });
    const refused = await generate({ batch: '停用', templateId: off, count: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('该优惠券已停用，不能生成兑换码');
    const missing = await generate({ batch: '无券', templateId: 999_999, count: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.data.fields).toEqual({ templateId: '所选的优惠券不存在' });
  });

  it('redeems a code typed in lower case with spaces and dashes into a coupon of the user’s', async () => {
    const templateId = await createTemplate(api, { name: '兑换七天券' });
    await generate({ batch: '店内台卡', templateId, count: 2 });
    const [first] = await codesOf('店内台卡');
    const typed = ` ${formatExchangeCode(first?.code as string)
      .toLowerCase()
      .replaceAll('-', ' - ')} `;
    const res = await redeem(guest, typed);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('兑换成功');
    expect(res.body.data).toMatchObject({
      templateId,
      name: '兑换七天券',
      kind: 'cash',
      valueFen: 500,
      source: 'exchange',
      status: 'unused',
      expiresAt: '2025-01-07T16:00:00.000Z',
    });
    const guestId = await userId(t, 'guest');
    const [after] = (await codesOf('店内台卡')).filter((c) => c.id === first?.id);
    expect(after).toMatchObject({ status: 'used', redeemedBy: guestId });
    const mine = await guest.get('/api/me/coupons');
    expect(mine.body.data.map((c: { id: number }) => c.id)).toContain(res.body.data.id);
    expect((await template(api, templateId)).issuedQty).toBe(1);
  });

  it('lets exactly one of 50 concurrent redemptions of one code win; the others hear 该兑换码已被使用', async () => {
    const templateId = await createTemplate(api, { name: '抢兑券', perUserLimit: 100 });
    await generate({ batch: '抢兑', templateId, count: 1 });
    const [only] = await codesOf('抢兑');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem(i % 2 === 0 ? guest : operator, only?.code)),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 200);
    expect(lost).toHaveLength(49);
    for (const a of lost) expect([a.status, a.body.message]).toEqual([409, '该兑换码已被使用']);
    expect(await couponsOf(api, `templateId=${templateId}`)).toHaveLength(1);
    expect((await template(api, templateId)).issuedQty).toBe(1);
  });

  it('refuses a code of the wrong shape, an unknown one, a voided one and a voided batch', async () => {
    const shape = await redeem(guest, 'ABC-123');
    expect(shape.status).toBe(422);
    expect(shape.body.data.fields).toEqual({ code: '兑换码为 12 位字母和数字，请检查后重新输入' });
    expect((await redeem(guest, '')).body.message).toBe('请输入兑换码');
    const unknown = await redeem(guest, 'ABCD-EFGH-JKMN');
    expect([unknown.status, unknown.body.message]).toEqual([404, '兑换码不存在，请检查后重新输入']);

    const templateId = await createTemplate(api, { name: '作废券' });
    await generate({ batch: '作废批', templateId, count: 3 });
    const [one, two] = await codesOf('作废批');
    const voided = await api.post(`/api/admin/exchangeCodes/${one?.id}/void`);
    expect(voided.status, voided.text).toBe(200);
    const refused = await redeem(guest, one?.code);
    expect([refused.status, refused.body.message]).toEqual([409, '该兑换码已作废']);

    expect((await redeem(guest, two?.code)).status).toBe(200);
    const batch = await api.post('/api/admin/exchangeCodes/voidBatch', { batch: '作废批' });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data).toEqual({ batch: '作废批', voided: 1 });
    const statuses = (await codesOf('作废批')).map((c) => c.status).sort();
    expect(statuses).toEqual(['used', 'void', 'void']);
    const again = await api.post('/api/admin/exchangeCodes/voidBatch', { batch: '作废批' });
    expect([again.status, again.body.message]).toEqual([409, '批次“作废批”没有未兑换的兑换码']);
    const none = await api.post('/api/admin/exchangeCodes/voidBatch', { batch: '没有这批' });
    expect(none.status).toBe(422);
  });

  it('leaves the code unused when the coupon cannot be issued (每人限领 reached)', async () => {
    const templateId = await createTemplate(api, { name: '一人一张', perUserLimit: 1 });
    await generate({ batch: '一人一张', templateId, count: 2 });
    const [a, b] = await codesOf('一人一张');
    expect((await redeem(guest, a?.code)).status).toBe(200);
    const second = await redeem(guest, b?.code);
    expect([second.status, second.body.message]).toEqual([409, '每人限领 1 张，该用户已领到上限']);
    expect((await codesOf('一人一张')).find((c) => c.id === b?.id)?.status).toBe('unused');
    expect((await redeem(operator, b?.code)).status).toBe(200);
  });

  it('needs a signed-in user to redeem, and exchangeCodes:write to generate', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/me/coupons/redeem',
      payload: { code: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
    const denied = await guest.post('/api/admin/exchangeCodes/generate', {
      batch: 'x',
      templateId: 1,
      count: 1,
    });
    expect(denied.status).toBe(403);
  });
});
