import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlatformConfig } from '../src/domain/platform-config/store.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';

describe.each(DB_KINDS)('public config on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { demoUsers: false } });
  });
  afterAll(async () => t?.close());

  const get = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('answers the defaults without a sign-in', async () => {
    expect(await get()).toEqual({
      success: true,
      data: {
        productName: '万象',
        pageTitle: '万象',
        copyright: '© 2024 万象',
        version: 'test-version',
        wsHost: '',
        apiHost: '',
        allowRegistration: false,
      },
    });
  });

  it('uses a configured product name, and the page title follows it until set', async () => {
    await setPlatformConfig(t.app.db, 'productName', '星河外卖', t.clock.now());
    expect((await get()).data).toMatchObject({
      productName: '星河外卖',
      pageTitle: '星河外卖',
      copyright: '© 2024 星河外卖',
    });
    await setPlatformConfig(t.app.db, 'pageTitle', '星河外卖 · 管理后台', t.clock.now());
    await setPlatformConfig(t.app.db, 'allowRegistration', true, t.clock.now());
    await setPlatformConfig(t.app.db, 'wsHost', 'wss://ws.example.com', t.clock.now());
    expect((await get()).data).toMatchObject({
      productName: '星河外卖',
      pageTitle: '星河外卖 · 管理后台',
      allowRegistration: true,
      wsHost: 'wss://ws.example.com',
    });
  });

  it('overwrites a key rather than adding a second row', async () => {
    await setPlatformConfig(t.app.db, 'productName', '甲', t.clock.now());
    await setPlatformConfig(t.app.db, 'productName', '乙', t.clock.now());
    expect((await get()).data.productName).toBe('乙');
    const rows = await t.app.db
      .selectFrom('platform_config')
      .selectAll()
      .where('key', '=', 'productName')
      .execute();
    expect(rows).toHaveLength(1);
  });
});
