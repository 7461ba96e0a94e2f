import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs } from './helpers.js';

describe.each(DB_KINDS)('platform configuration as a resource on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  const publicConfig = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/public/config' })).json().data;

  it('shows the key-value store as one row with id 1', async () => {
    const res = await api.get('/api/admin/platformConfig/1');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 1,
      productName: '万象',
      pageTitle: null,
      allowRegistration: false,
    });
    // Never saved: as old as the installation, not the epoch (1970-01-01 on the screen).
    const created = Date.parse(res.body.data.createdAt);
    expect(created).toBeGreaterThan(Date.parse('2020-01-01'));
    expect(created).toBeLessThanOrEqual(Date.now());
    expect(res.body.data.updatedAt).toBe(res.body.data.createdAt);
    const list = await api.get('/api/admin/platformConfig');
    expect(list.body.data.results).toEqual([res.body.data]);
    expect(list.body.data.page.total).toBe(1);
    expect((await api.get('/api/admin/platformConfig/2')).status).toBe(404);
  });

  it('saves edits that /api/public/config reflects, each save a configVersions row; restore brings one back', async () => {
    const current = (await api.get('/api/admin/platformConfig/1')).body.data;
    const saved = await api.patch(
      '/api/admin/platformConfig/1',
      { productName: '星河外卖', allowRegistration: true, icpNumber: '京ICP备12345678号' },
      { 'if-match': current.updatedAt },
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({ productName: '星河外卖', allowRegistration: true });
    expect(await publicConfig()).toMatchObject({
      productName: '星河外卖',
      pageTitle: '星河外卖',
      allowRegistration: true,
    });

    const stale = await api.patch(
      '/api/admin/platformConfig/1',
      { productName: '旧的' },
      { 'if-match': current.updatedAt },
    );
    expect(stale.status).toBe(409);
    const invalid = await api.patch('/api/admin/platformConfig/1', { productName: '', wsHost: 'not a url' });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.data.fields).sort()).toEqual(['productName', 'wsHost']);

    await api.patch('/api/admin/platformConfig/1', { pageTitle: '星河外卖 · 管理后台' });
    expect((await publicConfig()).pageTitle).toBe('星河外卖 · 管理后台');

    const versions = (await api.get('/api/admin/configVersions')).body.data;
    expect(versions.page.total).toBe(2);
    const [second, first] = versions.results;
    const adminId = (await api.get('/api/user/current')).body.data.id;
    expect(first).toMatchObject({
      version: 1,
      savedBy: adminId,
      snapshot: { productName: '星河外卖', pageTitle: null },
    });
    expect(second).toMatchObject({ version: 2, snapshot: { pageTitle: '星河外卖 · 管理后台' } });
    expect(versions.relations.savedBy).toEqual({ [String(adminId)]: 'admin' });

    const restored = await api.post(`/api/admin/configVersions/${first.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.data).toMatchObject({ version: 3, snapshot: first.snapshot });
    expect(await publicConfig()).toMatchObject({ productName: '星河外卖', pageTitle: '星河外卖' });
    expect((await api.get('/api/admin/configVersions?limit=1')).body.data.page.total).toBe(3);

    const audit = (await api.get('/api/admin/auditLogs?sort=id&limit=100')).body.data.results as Record<
      string,
      unknown
    >[];
    const actions = audit.map((a) => a.action);
    expect(actions.filter((a) => a === 'platformConfig.update')).toHaveLength(2);
    expect(audit.find((a) => a.action === 'configVersions.restore')).toMatchObject({
      recordId: first.id,
      before: { pageTitle: '星河外卖 · 管理后台' },
      after: { pageTitle: null },
    });
    expect(audit.find((a) => a.action === 'platformConfig.update')).toMatchObject({
      before: { productName: '万象', allowRegistration: false, icpNumber: null },
      after: { productName: '星河外卖', allowRegistration: true, icpNumber: '京ICP备12345678号' },
    });
  });

  it('offers no create, delete or version edits, and needs system permissions', async () => {
    expect((await api.del('/api/admin/platformConfig/1')).status).toBe(403);
    expect((await api.patch('/api/admin/configVersions/1', { version: 9 })).status).toBe(403);
    const operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    const refused = await operator.patch('/api/admin/platformConfig/1', { productName: '越权' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('没有权限执行此操作');
    expect((await operator.post('/api/admin/configVersions/1/restore')).status).toBe(403);
  });
});
