/** The back office: every admin route, the server monitor with real figures, console hygiene. */
import { hostname } from 'node:os';
import { ADMIN_ROUTES, formatDateTime, listingsOfRoute } from '@wanxiang/core';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  useToken,
} from './harness';

describe.runIf(browserAvailable())('admin back office (e2e)', () => {
  let session: Session;
  let token: string;
  beforeAll(async () => {
    // The demo content the product writes on first start: every list has rows to show.
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('opens every admin route of spec §2 with its table of demo rows (or its own screen) and no console error', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    for (const route of ADMIN_ROUTES) {
      const path = `/admin/${route.pattern}`;
      // Within the app, as a user going from screen to screen: a history entry the router follows
      // (the tests below click the menu itself). A full load of each route rebuilt the whole back
      // office ~60 times; loading a screen's address directly is what the other files do.
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.locator('.wx-admin-title').getByText(route.title, { exact: true }).waitFor();
      if (route.screen === 'serverMonitor') {
        await page.locator('.wx-monitor').waitFor();
      } else if (route.screen === 'custom' || listingsOfRoute(route.pattern).length === 0) {
        await page.getByRole('heading', { name: route.title, exact: true }).waitFor();
      } else {
        // The registry's list, its rows answered (no spinner, no error state) — on the screen
        // shown: the screens opened before stay in their tabs, hidden.
        await page.locator('.wx-resource-table:visible .ant-table').first().waitFor();
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.wx-resource-table .ant-spin-spinning')].every(
            (s) => !s.checkVisibility(),
          ),
        );
        expect(await page.locator('.wx-list-error:visible').count(), path).toBe(0);
        expect(
          await page.locator('.wx-resource-table:visible .ant-table-row').count(),
          `${path} shows demo rows`,
        ).toBeGreaterThan(0);
      }
      expect(new URL(page.url()).pathname).toBe(path);
    }
    expect(errors).toEqual([]);
    await close();
  }, 480_000); // every admin route in turn (~60): 330 s once on a loaded 2-core machine, with full loads

  it('loads the server figures before the monitor renders, shows real ones and refreshes them', async () => {
    // In a browser set to UTC: the time stamp still reads China Standard Time.
    const { page, errors, close } = await openPage(session, { timezoneId: 'UTC' });
    await useToken(page, token);
    let collectedAt = 0;
    page.on('response', async (r) => {
      if (r.url().endsWith('/api/admin/server-monitor') && r.ok()) {
        collectedAt = ((await r.json()) as { data: { collectedAt: number } }).data.collectedAt;
      }
    });
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();

    // Hold the figures: the previous screen stays until they are there.
    let held: Route | null = null;
    const arrived = new Promise<Route>((resolve) => {
      void page.route('**/api/admin/server-monitor', async (route) => {
        if (held) return route.continue();
        held = route;
        resolve(route);
      });
    });
    await page.locator('.wx-admin-menu').getByText('平台配置').click();
    await page.locator('.wx-admin-menu').getByText('服务器监控').click();
    const route = await arrived;
    expect(await page.locator('.wx-monitor').count()).toBe(0);
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await route.continue();

    await page.locator('.wx-monitor').waitFor();
    const value = (label: string) =>
      page
        .locator('.ant-descriptions-item')
        .filter({ hasText: label })
        .locator('.ant-descriptions-item-content');
    expect(await value('主机名').textContent()).toBe(hostname());
    expect(await value('Node.js 版本').first().textContent()).toBe(process.version);
    expect(await value('类型').textContent()).toBe('SQLite');
    expect(await value('大小').textContent()).toMatch(/^\d+(\.\d)? (B|KB|MB|GB)$/);
    // The admission gate at its default: nobody waiting on an idle test server.
    expect(await value('数据库工作').textContent()).toMatch(/^进行中 \d+ · 排队 0（同时最多 8 个）$/);
    expect(
      Number(
        (await page
          .locator('.ant-statistic')
          .first()
          .locator('.ant-statistic-content-value')
          .textContent()) ?? 'x',
      ),
    ).toBeGreaterThan(0);
    const cpu = page.locator('.wx-monitor-gauge').filter({ hasText: '主机 CPU' });
    expect(await cpu.locator('.ant-progress').first().textContent()).toMatch(/^\d+(\.\d)?%$/);

    const chinaTime = (at: number) =>
      `更新于 ${formatDateTime(at)}:${String(new Date(at).getUTCSeconds()).padStart(2, '0')}`;
    await expect.poll(() => page.locator('.wx-monitor-updated').textContent()).toBe(chinaTime(collectedAt));

    // Auto refresh: the next answer comes by itself and the time stamp moves on.
    const stamp = await page.locator('.wx-monitor-updated').textContent();
    const next = await page.waitForResponse((r) => r.url().endsWith('/api/admin/server-monitor'), {
      timeout: 15_000,
    });
    expect(next.status()).toBe(200);
    await page.waitForFunction(
      (previous) => document.querySelector('.wx-monitor-updated')?.textContent !== previous,
      stamp,
    );
    await page.locator('svg.wx-sparkline').first().waitFor();
    await screenshot(page, 'server-monitor', { fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });

  it('logs no warning about an unused preload on /admin/login or an admin screen; the public home keeps its preloads', async () => {
    const home = await (await fetch(`${session.server.url}/`)).text();
    expect(home).toMatch(/<link rel="preload" as="style"[^>]+\.css">/);
    expect(home).toMatch(/<link rel="modulepreload"[^>]+PublicLayout-[\w-]+\.js">/);

    const { page, warnings, errors, close } = await openPage(session);
    await page.goto('/admin/login');
    await page.locator('img[alt="验证码"]').waitFor();
    // Chromium warns a few seconds after the load event about a preload nothing used.
    await page.waitForTimeout(4_000);
    await useToken(page, token);
    await page.goto('/admin/OMS/store');
    await page.locator('.wx-resource-table .ant-table-row').first().waitFor();
    await page.waitForTimeout(4_000);
    expect(warnings.filter((w) => /preload/i.test(w))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it.each([
    ['OMS/good', 'goods', '排序'],
    ['sys-user', 'users', '最近登录'],
  ])(
    'at 1440 px the fixed 操作 column leaves the last data column of /admin/%s in view',
    async (pattern, name, leftOut) => {
      const { page, close } = await openPage(session, { width: 1440, height: 900 });
      await useToken(page, token);
      await page.goto(`/admin/${pattern}`);
      await page.locator('.wx-resource-table .ant-table-row').first().waitFor();
      await page.waitForFunction(() => !document.querySelector('.wx-resource-table .ant-spin-spinning'));
      // Looked at before measuring: the screenshot shows what a failure means.
      await screenshot(page, `${name}-list-1440`);
      const header = page.locator('.wx-resource-table thead tr').first();
      const actions = header.locator('th', { hasText: '操作' });
      // The last data column: the header cell just before 操作.
      const last = header.locator('th:has(+ th:has-text("操作"))');
      const a = await actions.boundingBox();
      const b = await last.boundingBox();
      if (!a || !b) throw new Error('header cells not found');
      expect(b.width, `${await last.textContent()} has room`).toBeGreaterThan(40);
      expect(b.x + b.width, `${await last.textContent()} ends before 操作`).toBeLessThanOrEqual(a.x + 0.5);
      // Optional columns that do not fit are left out, and 列设置 says so; a wider screen has them.
      expect(await header.locator('th', { hasText: leftOut }).count()).toBe(0);
      await page.getByRole('button', { name: /^列设置，\d+ 列未显示$/ }).waitFor();
      await page.setViewportSize({ width: 1920, height: 900 });
      await header.locator('th', { hasText: leftOut }).waitFor();
      expect(await page.getByRole('button', { name: '列设置', exact: true }).count()).toBe(1);
      await close();
    },
  );

  it('collapses the menu and keeps the current screen selected', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin/runner/dispatch');
    const selected = page.locator('.wx-admin-menu .ant-menu-item-selected');
    await selected.getByText('按订单派单').waitFor();
    await page.locator('.wx-admin-breadcrumb').getByText('配送').waitFor();
    await page.locator('.ant-layout-sider-trigger').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor();
    await page.locator('.ant-layout-sider-trigger').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor({ state: 'detached' });
    await selected.getByText('按订单派单').waitFor();
    // Disabled entries stay visible but cannot be opened.
    await page.locator('.wx-admin-menu').getByText('设备/监控').click();
    const kitchen = page
      .locator('.wx-admin-menu .ant-menu-item-disabled')
      .filter({ hasText: '后厨硬件与监控' });
    await kitchen.waitFor();
    await close();
  });
});
