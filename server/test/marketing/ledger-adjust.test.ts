/**
 * 调整余额 and 调整积分 with a reason: an entry of its own in the ledger, the user's balance or
 * points moved with it in one transaction, never below zero, and the refusals in Chinese.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { createUsers } from './helpers.js';

describe.each(DB_KINDS)('ledger adjustments on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let user: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    [user] = (await createUsers(t, 1, 'wallet')) as [number];
  });
  afterAll(async () => t?.close());

  const userRow = async () => (await api.get(`/api/admin/users/${user}`)).body.data;

  it('credits and debits a balance with a reason, each an entry with the balance after it', async () => {
    const credit = await api.post('/api/admin/balanceLedger/adjust', {
      userId: user,
      changeFen: 1500,
      note: '客诉补偿',
    });
    expect(credit.status, credit.text).toBe(200);
    expect(credit.body).toMatchObject({
      message: '调整余额成功',
      data: { userId: user, changeFen: 1500, balanceAfterFen: 1500 },
    });
    const debit = await api.post('/api/admin/balanceLedger/adjust', {
      userId: user,
      changeFen: -500,
      note: '误充扣回',
    });
    expect(debit.body.data.balanceAfterFen).toBe(1000);
    expect((await userRow()).balanceFen).toBe(1000);
    const entries = await api.get(`/api/admin/balanceLedger?userId=${user}&sort=id`);
    expect(
      entries.body.data.results.map((e: Record<string, unknown>) => [
        e.kind,
        e.changeFen,
        e.balanceAfterFen,
        e.note,
      ]),
    ).toEqual([
      ['adjust', 1500, 1500, '客诉补偿'],
      ['adjust', -500, 1000, '误充扣回'],
    ]);
    const audit = await api.get('/api/admin/auditLogs?action=balanceLedger.adjust');
    expect(audit.body.data.results[0].after).toMatchObject({
      userId: user,
      changeFen: -500,
      note: '误充扣回',
    });
  });

  it('never takes a balance below zero, and refuses 0 or no reason', async () => {
    const over = await api.post('/api/admin/balanceLedger/adjust', {
      userId: user,
      changeFen: -1001,
      note: '扣减',
    });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('余额不足：当前余额 ¥10.00，需要 ¥10.01');
    expect((await userRow()).balanceFen).toBe(1000);
    const zero = await api.post('/api/admin/balanceLedger/adjust', {
      userId: user,
      changeFen: 0,
      note: '无',
    });
    expect(zero.status).toBe(422);
    expect(zero.body.data.fields).toEqual({ changeFen: '调整金额不能为 0' });
    const silent = await api.post('/api/admin/balanceLedger/adjust', { userId: user, changeFen: 100 });
    expect(silent.status).toBe(422);
    expect(silent.body.data.fields).toEqual({ note: '请输入原因' });
    const nobody = await api.post('/api/admin/balanceLedger/adjust', {
      userId: 999_999,
      changeFen: 100,
      note: '补偿',
    });
    expect(nobody.status).toBe(422);
    expect(nobody.body.data.fields).toEqual({ userId: '所选的用户不存在' });
  });

  it('adjusts points the same way', async () => {
    const plus = await api.post('/api/admin/pointsLedger/adjust', {
      userId: user,
      change: 300,
      note: '活动补发',
    });
    expect(plus.status, plus.text).toBe(200);
    expect(plus.body.data).toMatchObject({ change: 300, balanceAfter: 300 });
    const minus = await api.post('/api/admin/pointsLedger/adjust', {
      userId: user,
      change: -301,
      note: '扣回',
    });
    expect([minus.status, minus.body.message]).toEqual([409, '积分不足：当前 300 积分，需要 301 积分']);
    expect((await userRow()).points).toBe(300);
    const entries = await api.get(`/api/admin/pointsLedger?userId=${user}`);
    expect(entries.body.data.results).toMatchObject([
      { reason: 'adjust', change: 300, balanceAfter: 300, note: '活动补发' },
    ]);
  });
});
