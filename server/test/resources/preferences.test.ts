import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, apiAs } from './helpers.js';

describe.each(DB_KINDS)('user preferences on %s', (kind) => {
  let t: TestApp;
  let editor: Api;
  let operator: Api;
  let guest: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    editor = apiAs(t.app, await tokenOf(t.app, 'editor', DEMO_PASSWORD));
    operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('stores, overwrites, lists and deletes any JSON value under a key', async () => {
    expect((await editor.get('/api/me/preferences')).body).toEqual({ success: true, data: {} });
    const columns = { columns: ['orderNo', 'status', 'payableFen'], pageSize: 50 };
    expect((await editor.put('/api/me/preferences/list:orders', { value: columns })).status).toBe(200);
    await editor.put('/api/me/preferences/tabs', { value: ['/admin/OMS/order', '/admin/sys-user'] });
    await editor.put('/api/me/preferences/theme.dark', { value: true });
    expect((await editor.get('/api/me/preferences')).body.data).toEqual({
      'list:orders': columns,
      tabs: ['/admin/OMS/order', '/admin/sys-user'],
      'theme.dark': true,
    });
    await editor.put('/api/me/preferences/theme.dark', { value: false });
    await editor.put('/api/me/preferences/empty', { value: null });
    expect((await editor.get('/api/me/preferences')).body.data).toMatchObject({
      'theme.dark': false,
      empty: null,
    });
    expect((await editor.del('/api/me/preferences/tabs')).status).toBe(200);
    expect((await editor.del('/api/me/preferences/tabs')).status).toBe(200);
    expect((await editor.get('/api/me/preferences')).body.data).not.toHaveProperty('tabs');
  });

  it('keeps each user’s preferences to themselves, and needs no role', async () => {
    await operator.put('/api/me/preferences/list:orders', { value: { pageSize: 100 } });
    await guest.put('/api/me/preferences/list:orders', { value: { pageSize: 10 } });
    expect((await operator.get('/api/me/preferences')).body.data).toEqual({
      'list:orders': { pageSize: 100 },
    });
    expect((await guest.get('/api/me/preferences')).body.data).toEqual({ 'list:orders': { pageSize: 10 } });
    expect((await editor.get('/api/me/preferences')).body.data['list:orders']).toEqual({
      columns: ['orderNo', 'status', 'payableFen'],
      pageSize: 50,
    });
    await guest.del('/api/me/preferences/list:orders');
    expect((await operator.get('/api/me/preferences')).body.data).toEqual({
      'list:orders': { pageSize: 100 },
    });
  });

  it('refuses bad keys, a missing value and values over 64 KB', async () => {
    for (const key of ['has space', '%E4%B8%AD', 'semi;colon', 'a'.repeat(101)]) {
      const res = await editor.put(`/api/me/preferences/${key}`, { value: 1 });
      // Fastify itself refuses a path parameter over 100 characters (414).
      expect([414, 422], key).toContain(res.status);
    }
    expect(Object.keys((await editor.get('/api/me/preferences')).body.data)).not.toContain('a'.repeat(101));
    const missing = await editor.put('/api/me/preferences/ok', {});
    expect(missing.status).toBe(422);
    expect(missing.body.data.fields).toEqual({ value: '请输入value' });
    const big = await editor.put('/api/me/preferences/big', { value: 'x'.repeat(64 * 1024) });
    expect(big.status).toBe(422);
    expect(big.body.data.fields).toEqual({ value: '偏好设置最多 64 KB' });
    const fits = await editor.put('/api/me/preferences/big', { value: 'x'.repeat(64 * 1024 - 2) });
    expect(fits.status).toBe(200);
  });

  it('answers 401 without a sign-in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me/preferences' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/me/preferences/x', payload: { value: 1 } })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/me/preferences/x' })).statusCode).toBe(401);
  });
});
