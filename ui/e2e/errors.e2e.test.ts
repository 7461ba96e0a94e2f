/**
 * The 404 screen, the Loading... heading of lazy screens, and the error-catalogue rows that need a
 * server answer we cannot provoke for real (500, errorCode 1): intercepted with page.route.
 */
import type { Response, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  notices,
  openPage,
  type Session,
  screenshot,
  startSession,
  storedToken,
  TEST_ADMIN_PASSWORD,
  useToken,
} from './harness';

/** Holds the first request matching `pattern` until `release()`; `held` resolves once it arrived. */
function holdRequest(pattern: RegExp) {
  let arrived: (route: Route) => void = () => {};
  const held = new Promise<Route>((resolve) => {
    arrived = resolve;
  });
  let route: Route | null = null;
  const handler = (r: Route) => {
    if (route) return r.continue();
    route = r;
    arrived(r);
  };
  return {
    pattern,
    handler,
    held,
    release: async () => {
      await (await held).continue();
    },
  };
}

describe.runIf(browserAvailable())('404, Loading... and error answers (e2e)', () => {
  let session: Session;
  let adminToken: string;
  beforeAll(async () => {
    session = await startSession();
    adminToken = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('shows "{path} has error Not Found", 返回首页 and the copyright with the version for an unknown path', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/no/such/page?x=1');
    await page.getByText('/no/such/page has error Not Found', { exact: true }).waitFor();
    const footer = await page.locator('.wx-copyright').textContent();
    expect(footer).toMatch(/2024/);
    expect(footer).toMatch(/版本 ([0-9a-f]{4,40}|dev)$/);
    await screenshot(page, 'not-found');
    await page.getByRole('button', { name: '返回首页' }).click();
    // /admin, which sends a signed-out visitor on to the login screen.
    await page.waitForURL((url) => url.pathname === '/admin/login');
    // The page itself answered 404 (Chromium logs that), nothing else failed.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await close();
  });

  it('answers HTTP 404 for an unknown page (the 404 screen still shows), JSON for an unknown API path, 200 for known pages', async () => {
    const { page, close } = await openPage(session);
    // Signed in: a signed-out visitor of /admin/no-such is sent to the login screen first.
    await useToken(page, adminToken);
    for (const path of ['/no-such-page', '/admin/no-such', '/article/1/extra']) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      expect(res?.headers()['content-type'], path).toMatch(/^text\/html/);
      await page.getByText(`${path} has error Not Found`, { exact: true }).waitFor();
    }
    for (const path of ['/cloud/api/x', '/api/no-such']) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      expect(res?.headers()['content-type'], path).toMatch(/^application\/json/);
      expect(await res?.json(), path).toMatchObject({ success: false, errorCode: 404 });
    }
    for (const path of [
      '/',
      '/article/42',
      '/doc/detail/7/3',
      '/cloud/api',
      '/scan_login',
      '/admin/login',
      '/admin/OMS/good',
    ]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
    }
    await close();
  });

  it('shows the 404 screen for an unknown admin path of a signed-in user', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, adminToken);
    await page.goto('/admin/no/such/screen');
    await page.getByText('/admin/no/such/screen has error Not Found', { exact: true }).waitFor();
    await page.getByRole('button', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await close();
  });

  it('shows Loading... while a lazy screen’s chunk is on its way (first visit)', async () => {
    const { page, close } = await openPage(session);
    const hold = holdRequest(/\/assets\/NotFound-[\w-]+\.js$/);
    await page.route(hold.pattern, hold.handler);
    await page.goto('/lost', { waitUntil: 'commit' });
    await hold.held;
    await page.getByRole('heading', { name: 'Loading...', exact: true }).waitFor();
    expect(await page.getByText('has error').count()).toBe(0);
    await hold.release();
    await page.getByText('/lost has error Not Found').waitFor();
    expect(await page.getByRole('heading', { name: 'Loading...' }).count()).toBe(0);
    await close();
  });

  it('shows Loading... in the layout while a screen’s chunk loads during a navigation', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, adminToken);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    const hold = holdRequest(/\/assets\/ResourcePage-[\w-]+\.js$/);
    await page.route(hold.pattern, hold.handler);
    await page.locator('.wx-admin-menu').getByText('门店', { exact: true }).click();
    await hold.held;
    await page.getByRole('heading', { name: 'Loading...', exact: true }).waitFor();
    // The layout stays: only the screen waits.
    await page.locator('.wx-admin-menu').waitFor();
    await hold.release();
    await page.locator('.wx-resource-table').getByRole('heading', { name: '门店', exact: true }).waitFor();
    await close();
  });

  it('a 500 answer shows 系统错误 {message} and the screen offers a retry', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, adminToken);
    await page.route('**/api/admin/server-monitor', (route) =>
      route.fulfill({
        status: 500,
        json: { success: false, errorCode: 500, message: '数据库连接失败（请求编号 abc123）' },
      }),
    );
    await page.goto('/admin/sys-tools/monitor');
    const toast = notices(page).filter({ hasText: '系统错误' });
    await toast.waitFor();
    expect((await toast.locator('.ant-notification-notice-title').textContent())?.trim()).toBe(
      '系统错误 数据库连接失败（请求编号 abc123）',
    );
    await page.getByText('服务器监控数据加载失败').waitFor();

    await page.unroute('**/api/admin/server-monitor');
    // antd spaces out a two-character label: 重 试.
    const retry = page.getByRole('button', { name: /^重\s?试$/ });
    // A click that lands while a loaded machine is still re-rendering the error screen can be
    // lost (CI saw one: no request followed it). The retry counts once it asks for the figures
    // again; a button that never does still fails here.
    let answer: Response | null = null;
    for (let attempt = 1; ; attempt++) {
      const asked = page
        .waitForRequest((r) => r.url().endsWith('/api/admin/server-monitor'), { timeout: 5_000 })
        .catch(() => null);
      await retry.click();
      const request = await asked;
      if (request) {
        answer = await request.response();
        break;
      }
      if (attempt === 3) throw new Error('重试 asked for nothing in three clicks');
    }
    // CI once saw the figures asked for again and the screen not there 30 s later, on a machine
    // running every project at once: the answer is checked first, so a failure says which half
    // (server or screen) it was, and the screen gets the test's whole budget to render.
    expect(answer?.status(), 'the retry’s answer').toBe(200);
    // CI saw it again (2026-12-07): the answer 200 and no figures 90 s later, never reproduced
    // alone or under a CPU load. What the page shows and what it logged then say where it stopped.
    await page
      .getByText('Node.js 版本')
      .waitFor({ timeout: 90_000 })
      .catch(async (error: unknown) => {
        const shown = (
          await page
            .locator('body')
            .textContent()
            .catch(() => '')
        )?.slice(0, 600);
        throw new Error(
          `no figures after the retry; the page shows: ${shown}; page errors: ${errors.join(' | ')}`,
          {
            cause: error,
          },
        );
      });
    expect(await storedToken(page)).toBe(adminToken);
    await close();
  }, 150_000);

  it('an errorCode 1 answer removes the token and reloads the page', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, adminToken);
    let documents = 0;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents++;
    });
    let answered = false;
    await page.route('**/api/user/current', (route) => {
      if (answered) return route.continue();
      answered = true;
      return route.fulfill({
        status: 200,
        json: { success: false, errorCode: 1, message: '登录状态已失效，请重新登录' },
      });
    });
    await page.goto('/admin/OMS/store');
    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByText('账号登录').waitFor();
    expect(await storedToken(page)).toBeNull();
    // The first load, the reload (the guard then sends the visitor to /admin/login in the page).
    expect(documents).toBe(2);
    await close();
  });
});
