/** The counter's member lookup: by phone, username or nickname, with balance and points; staff only. */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, apiAs } from '../resources/helpers.js';

describe.each(DB_KINDS)('counter customers on %s', (kind) => {
  let t: TestApp;
  let operator: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    await t.app.resources.insertRows(getResource('users'), [
      {
        username: 'zhang_san',
        password: 'Passw0rd!',
        nickname: '张三',
        phone: '13800000001',
        status: 'active',
      },
      {
        username: 'li_si',
        password: 'Passw0rd!',
        nickname: '李四100%',
        phone: '13900000002',
        status: 'active',
      },
      {
        username: 'wang_wu',
        password: 'Passw0rd!',
        nickname: '王五',
        phone: '13800000003',
        status: 'disabled',
      },
    ]);
  });
  afterAll(async () => t?.close());

  const find = async (q: string) => {
    const res = await operator.get(`/api/admin/orders/customers?q=${encodeURIComponent(q)}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as { username: string; balanceFen: number; points: number }[];
  };

  it('finds active members by phone prefix, username prefix or nickname, with balance and points', async () => {
    expect((await find('138')).map((c) => c.username)).toEqual(['zhang_san']);
    expect((await find('li_')).map((c) => c.username)).toEqual(['li_si']);
    expect((await find('张')).map((c) => c.username)).toEqual(['zhang_san']);
    expect(await find('张')).toEqual([
      expect.objectContaining({ balanceFen: 0, points: 0, nickname: '张三' }),
    ]);
    // % and _ are text: "100%" matches the one nickname with it.
    expect((await find('100%')).map((c) => c.username)).toEqual(['li_si']);
    // (A wildcard _ would match every username.)
    expect(await find('_')).toEqual([]);
    expect(await find('   ')).toEqual([]);
  });

  it('is for staff who take orders', async () => {
    const editor = apiAs(t.app, await tokenOf(t.app, 'editor', DEMO_PASSWORD));
    expect((await editor.get('/api/admin/orders/customers?q=138')).status).toBe(403);
  });
});
