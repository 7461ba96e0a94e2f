/**
 * The gateway's answers, both dialects: every status it gives, the rate-limit headers and
 * window, free quota before paid, expired quotas skipped, each tool through the gateway, the
 * stats the charts read, and the retention task.
 */
import { codeAt, parseTotpInput } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneGatewayHistory } from '../../src/domain/api-gateway/housekeeping.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { addApi, addKey, addQuota, anyDb, gw, meterOf, remainingOf, userIdOf } from './fixture.js';

const DAY = 86_400_000;

describe.each(DB_KINDS)('API gateway on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let user: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await adminApi(t);
    user = await userIdOf(t, 'guest');
  });
  afterAll(async () => t?.close());

  it('401 without a key, with a malformed, unknown or revoked key — JSON, nothing metered', async () => {
    await addApi(t, { code: 'p401', handler: 'palette', freeQuota: 10 });
    const revoked = await addKey(t, user, { status: 'revoked' });
    const none = await gw(t.app, 'p401', null, { query: { color: '#fff' } });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, errorCode: 401 });
    expect(none.body.message).toMatch(/缺少 API Key/);
    expect(none.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await gw(t.app, 'p401', 'not-a-key')).body.message).toBe('API Key 无效');
    expect((await gw(t.app, 'p401', `wx_${'A'.repeat(40)}`)).status).toBe(401);
    const r = await gw(t.app, 'p401', revoked.key, { query: { color: '#fff' } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('API Key 已吊销');
    expect((await meterOf(t, revoked.id)).calls).toBe(0);
  });

  it('404 JSON for an unknown code (never the site HTML), also below /cloud/api/ with no code', async () => {
    const { key } = await addKey(t, user);
    const res = await gw(t.app, 'no-such-api', key);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, errorCode: 404 });
    expect(res.body.message).toMatch(/接口不存在/);
    const bare = await t.app.inject({ method: 'GET', url: '/cloud/api/', headers: { 'x-api-key': key } });
    expect(bare.statusCode).toBe(404);
    expect(bare.headers['content-type']).toMatch(/json/);
    // Key or not, deeper paths too: JSON, never HTML.
    const nested = await t.app.inject({ method: 'GET', url: '/cloud/api/x/y/z' });
    expect(nested.statusCode).toBe(404);
    expect(nested.json()).toMatchObject({ success: false, errorCode: 404 });
  });

  it('403 for an API outside the key scopes and for a disabled API, with the rate headers', async () => {
    const a = await addApi(t, { code: 'p403a', handler: 'palette', freeQuota: 10, rateLimitPerMin: 7 });
    const b = await addApi(t, { code: 'p403b', handler: 'palette', freeQuota: 10 });
    await addApi(t, { code: 'p403off', handler: 'palette', freeQuota: 10, status: 'disabled' });
    const scoped = await addKey(t, user, { scopes: [b] });
    const res = await gw(t.app, 'p403a', scoped.key, { query: { color: '#fff' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('此 API Key 无权调用该接口');
    expect(res.headers['x-ratelimit-limit']).toBe('7');
    expect(res.headers['x-ratelimit-remaining']).toBe('7');
    expect((await gw(t.app, 'p403b', scoped.key, { query: { color: '#fff' } })).status).toBe(200);
    const off = await gw(t.app, 'p403off', (await addKey(t, user)).key, { query: { color: '#fff' } });
    expect(off.status).toBe(403);
    expect(off.body.message).toBe('该接口已停用');
    expect(a).toBeGreaterThan(0);
  });

  it('405 when the method does not match, with Allow; metered as an error and costing no quota', async () => {
    const api = await addApi(t, { code: 'p405', handler: 'palette', method: 'GET', freeQuota: 0 });
    const quota = await addQuota(t, user, api, 5, null);
    const k = await addKey(t, user);
    const res = await gw(t.app, 'p405', k.key, { method: 'POST', payload: { color: '#fff' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.message).toBe('该接口只接受 GET 请求');
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(await remainingOf(t, quota)).toBe(5);
    expect(await meterOf(t, k.id)).toMatchObject({ calls: 1, errors: 1, rollup: { calls: 1, errors: 1 } });
  });

  it('the key from the apikey query parameter works too; lastUsedAt is stamped', async () => {
    await addApi(t, { code: 'pquery', handler: 'palette', freeQuota: 10 });
    const k = await addKey(t, user);
    const res = await gw(t.app, 'pquery', k.key, { query: { color: '#1677ff' }, viaQuery: true });
    expect(res.status).toBe(200);
    const row = await anyDb(t)
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', k.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.last_used_at)).toBe(t.clock.now());
  });

  it('rate limit: headers count down, 429 past the limit with Retry-After and Reset at the window end, a new window lets calls again', async () => {
    // Start at a window's first second, so the window end is known.
    t.clock.current = Math.ceil(t.clock.current / 60_000) * 60_000 + 15_000;
    const end = Math.floor(t.clock.current / 60_000) * 60_000 + 60_000;
    await addApi(t, { code: 'prate', handler: 'palette', freeQuota: 100, rateLimitPerMin: 3 });
    const k = await addKey(t, user);
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw(t.app, 'prate', k.key, { query: { color: '#fff' } });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(res.headers['x-ratelimit-reset']).toBe(String(end / 1000));
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await gw(t.app, 'prate', k.key, { query: { color: '#fff' } });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('45');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(over.body.message).toMatch(/调用太频繁/);
    t.clock.advance(45_000);
    const next = await gw(t.app, 'prate', k.key, { query: { color: '#fff' } });
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('2');
    expect(next.headers['x-ratelimit-reset']).toBe(String(end / 1000 + 60));
    expect(await meterOf(t, k.id)).toMatchObject({
      calls: 5,
      ok: 4,
      rateLimited: 1,
      rollup: { calls: 5, ok: 4, rateLimited: 1 },
    });
  });

  it('quota: the month free quota first, then paid soonest-expiring first, expired skipped; then 429', async () => {
    const now = t.clock.now();
    const api = await addApi(t, { code: 'pquota', handler: 'palette', freeQuota: 2 });
    const expired = await addQuota(t, user, api, 5, now - 1);
    const later = await addQuota(t, user, api, 1, now + 30 * DAY);
    const sooner = await addQuota(t, user, api, 1, now + 2 * DAY);
    const k = await addKey(t, user);
    const call = () => gw(t.app, 'pquota', k.key, { query: { color: '#fff' } });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    // Free quota used: the paid quotas are untouched so far.
    expect([await remainingOf(t, sooner), await remainingOf(t, later)]).toEqual([1, 1]);
    expect((await call()).status).toBe(200);
    expect([await remainingOf(t, sooner), await remainingOf(t, later)]).toEqual([0, 1]);
    expect((await call()).status).toBe(200);
    expect(await remainingOf(t, later)).toBe(0);
    const out = await call();
    expect(out.status).toBe(429);
    expect(out.body.message).toMatch(/额度已用完/);
    // The free quota renews at the next China month: Retry-After says when.
    expect(Number(out.headers['retry-after'])).toBeGreaterThan(0);
    expect(await remainingOf(t, expired)).toBe(5);
    const free = await anyDb(t).selectFrom('api_free_usage').selectAll().where('api_id', '=', api).execute();
    expect(free.map((f) => Number(f.used))).toEqual([2]);
    expect(await meterOf(t, k.id)).toMatchObject({ calls: 5, ok: 4, noQuota: 1 });
  });

  it('a call the tool refuses (bad input) is metered as an error and costs no quota', async () => {
    const api = await addApi(t, { code: 'pbad', handler: 'palette', freeQuota: 0 });
    const quota = await addQuota(t, user, api, 3, null);
    const k = await addKey(t, user);
    const res = await gw(t.app, 'pbad', k.key, { query: { color: 'not a colour' } });
    expect(res.status).toBe(422);
    expect(res.body.data.fields.color).toMatch(/颜色格式不正确/);
    expect(await remainingOf(t, quota)).toBe(3);
    expect(await meterOf(t, k.id)).toMatchObject({ calls: 1, errors: 1 });
  });

  it('palette: the /color screen rule (antd 10 shades), notations and contrast', async () => {
    await addApi(t, { code: 'palette', handler: 'palette', freeQuota: 10 });
    const res = await gw(t.app, 'palette', (await addKey(t, user)).key, {
      query: { color: 'rgb(22, 119, 255)' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      hex: '#1677ff',
      rgb: 'rgb(22, 119, 255)',
      readableText: '#000000',
    });
    expect(res.body.data.palette).toHaveLength(10);
    expect(res.body.data.palette[5]).toBe('#1677ff');
    expect(res.body.data.contrast.white.ratio).toMatch(/^\d+\.\d\d$/);
  });

  it('totp: {secret, code} → {valid}, by POST body; a wrong code is valid: false', async () => {
    await addApi(t, { code: 'totp', handler: 'totp', method: 'POST', freeQuota: 10 });
    const k = await addKey(t, user);
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DP';
    const parsed = parseTotpInput(secret);
    if (!parsed.ok) throw new Error(parsed.error);
    const code = codeAt(parsed.config, t.clock.now());
    const good = await gw(t.app, 'totp', k.key, { method: 'POST', payload: { secret, code } });
    expect(good.status).toBe(200);
    expect(good.body.data).toMatchObject({ valid: true, delta: 0 });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await gw(t.app, 'totp', k.key, { method: 'POST', payload: { secret, code: wrong } });
    expect(bad.body.data.valid).toBe(false);
    const invalid = await gw(t.app, 'totp', k.key, {
      method: 'POST',
      payload: { secret: '0189', code: 'x' },
    });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.data.fields).sort()).toEqual(['code', 'secret']);
  });

  it('sslCheck: an API user may not reach loopback or private addresses (422 on host, nothing connected)', async () => {
    await addApi(t, { code: 'ssl-check', handler: 'sslCheck', freeQuota: 10 });
    const k = await addKey(t, user);
    const res = await gw(t.app, 'ssl-check', k.key, { query: { host: '127.0.0.1', port: '443' } });
    expect(res.status).toBe(422);
    expect(res.body.data.fields.host).toMatch(/不能连接本机地址/);
    const missing = await gw(t.app, 'ssl-check', k.key);
    expect(missing.status).toBe(422);
    expect(missing.body.data.fields.host).toBeDefined();
  });

  it('docSearch: the document library search through the gateway', async () => {
    await addApi(t, { code: 'doc-search', handler: 'docSearch', freeQuota: 10 });
    const cat = await admin.post('/api/admin/docCategories', { name: '法律', parentId: null, sort: 0 });
    expect(cat.status, cat.text).toBe(200);
    const doc = await admin.post('/api/admin/docs', {
      title: '中华人民共和国劳动合同法',
      categoryId: cat.body.data.id,
      summary: '劳动合同的订立与解除',
      validity: 'effective',
      publishDate: '2024-01-01',
    });
    expect(doc.status, doc.text).toBe(200);
    await admin.post('/api/admin/docPages', {
      docId: doc.body.data.id,
      pageNo: 1,
      content: '第一条 为了完善劳动合同制度',
    });
    expect((await admin.post(`/api/admin/docs/${doc.body.data.id}/submit`)).status).toBe(200);
    expect((await admin.post(`/api/admin/docs/${doc.body.data.id}/publish`)).status).toBe(200);
    const res = await gw(t.app, 'doc-search', (await addKey(t, user)).key, { query: { q: '合同' } });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { title: string }) => r.title)).toEqual([
      '中华人民共和国劳动合同法',
    ]);
    const bad = await gw(t.app, 'doc-search', (await addKey(t, user)).key, { query: { limit: '999' } });
    expect(bad.status).toBe(422);
  });

  it('stats: zero-filled China days oldest first, per API and per key; days 1..90; permission and 404', async () => {
    const api = await addApi(t, { code: 'pstats', handler: 'palette', freeQuota: 1 });
    const k = await addKey(t, user);
    await gw(t.app, 'pstats', k.key, { query: { color: 'nope' } }); // error, costs nothing
    await gw(t.app, 'pstats', k.key, { query: { color: '#fff' } }); // the free call
    await gw(t.app, 'pstats', k.key, { query: { color: '#fff' } }); // no quota
    const byApi = await admin.get(`/api/admin/marketApis/${api}/stats?days=7`);
    expect(byApi.status, byApi.text).toBe(200);
    expect(byApi.body.data.days).toHaveLength(7);
    const today = byApi.body.data.days[6];
    expect(today).toMatchObject({ calls: 3, ok: 1, errors: 1, noQuota: 1, rateLimited: 0 });
    expect(byApi.body.data.days[0]).toMatchObject({ calls: 0, latencyAvgMs: 0, latencyMaxMs: 0 });
    const days = byApi.body.data.days.map((d: { day: string }) => d.day);
    expect([...days].sort()).toEqual(days);
    const byKey = await admin.get(`/api/admin/apiKeys/${k.id}/stats`);
    expect(byKey.body.data.days).toHaveLength(30);
    expect(byKey.body.data.days[29]).toMatchObject({ calls: 3 });
    expect((await admin.get(`/api/admin/apiKeys/${k.id}/stats?days=91`)).status).toBe(422);
    expect((await admin.get(`/api/admin/apiKeys/${k.id}/stats?days=0`)).status).toBe(422);
    expect((await admin.get('/api/admin/apiKeys/999999/stats')).status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/apiKeys/${k.id}/stats` })).statusCode).toBe(
      401,
    );
  });

  it('retention: raw calls past the retention go, roll-ups stay', async () => {
    const api = await addApi(t, { code: 'pprune', handler: 'palette', freeQuota: 10 });
    const k = await addKey(t, user);
    await gw(t.app, 'pprune', k.key, { query: { color: '#fff' } });
    t.clock.advance(91 * DAY);
    const pruned = await pruneGatewayHistory(anyDb(t), t.clock.now(), 90);
    expect(pruned.calls).toBeGreaterThanOrEqual(1);
    expect((await meterOf(t, k.id)).calls).toBe(0);
    expect((await meterOf(t, k.id)).rollup.calls).toBe(1);
    // The admin's session expired with the 91 days.
    const stats = await (await adminApi(t)).get(`/api/admin/marketApis/${api}/stats?days=90`);
    expect(stats.body.data.days.reduce((s: number, d: { calls: number }) => s + d.calls, 0)).toBe(0);
  });
});
