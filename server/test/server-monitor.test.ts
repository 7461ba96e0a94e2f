import { ErrorCode } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from './helpers/app.js';
import { bearer, tokenOf } from './helpers/auth.js';

describe.each(DB_KINDS)('server monitor on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const monitor = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/admin/server-monitor', headers });

  it('answers 401 without a token', async () => {
    expect((await monitor()).statusCode).toBe(401);
  });

  it.each([
    ['editor', DEMO_PASSWORD],
    ['operator', DEMO_PASSWORD],
    ['guest', DEMO_PASSWORD],
  ])('answers 403 to %s, whose roles do not grant system:read', async (username, password) => {
    const res = await monitor(bearer(await tokenOf(t.app, username, password)));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      errorCode: ErrorCode.forbidden,
      message: '没有权限执行此操作',
    });
  });

  it('answers real host, process, database and request figures to the admin', async () => {
    const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
    const res = await monitor(bearer(token));
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.collectedAt).toBe(t.clock.now());

    expect(data.host.cpu.count).toBeGreaterThanOrEqual(1);
    expect(data.host.cpu.usagePercent).toBeGreaterThanOrEqual(0);
    expect(data.host.cpu.usagePercent).toBeLessThanOrEqual(100);
    expect(data.host.loadAverage).toHaveLength(3);
    expect(data.host.memory.totalBytes).toBeGreaterThan(data.host.memory.freeBytes);
    expect(data.host.uptimeS).toBeGreaterThan(0);
    expect(data.host.disk.path).toBe(t.config.dataDir);
    expect(data.host.disk.totalBytes).toBeGreaterThan(0);
    expect(data.host.disk.freeBytes).toBeLessThanOrEqual(data.host.disk.totalBytes);

    expect(data.process.pid).toBe(process.pid);
    expect(data.process.nodeVersion).toBe(process.version);
    expect(data.process.appVersion).toBe('test-version');
    expect(data.process.memory.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(data.process.memory.heapUsedBytes).toBeLessThanOrEqual(data.process.memory.heapTotalBytes);
    expect(data.process.cpu.usagePercent).toBeGreaterThanOrEqual(0);

    expect(data.database.dialect).toBe(kind);
    expect(data.database.sizeBytes).toBeGreaterThan(4096);
    expect(data.database.version).toMatch(/^\d+\.\d+/);
  });

  it('counts answered requests by status class and over the last minute', async () => {
    const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
    const before = (await monitor(bearer(token))).json().data.requests;
    await t.app.inject({ method: 'GET', url: '/api/public/config' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    const after = (await monitor(bearer(token))).json().data.requests;
    // The two requests above and the first monitor call itself.
    expect(after.total).toBe(before.total + 3);
    expect(after.byStatusClass['2xx']).toBe(before.byStatusClass['2xx'] + 2);
    expect(after.byStatusClass['4xx']).toBe(before.byStatusClass['4xx'] + 1);
    expect(after.lastMinute).toBe(before.lastMinute + 3);

    t.clock.advance(61_000);
    const later = (await monitor(bearer(token))).json().data.requests;
    expect(later.lastMinute).toBe(0);
    expect(later.total).toBe(after.total + 1);
  });
});
