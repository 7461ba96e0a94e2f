/** The public layout: every public route, the remembered path, /scan_login, 375 px. */
import { PUBLIC_ROUTES } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  fillLogin,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
  useToken,
} from './harness';

/** A concrete path for a route pattern: `1` for every parameter. */
const concrete = (pattern: string) => pattern.replace(/:\w+\??/g, '1');

describe.runIf(browserAvailable())('public site (e2e)', () => {
  let session: Session;
  let token: string;
  beforeAll(async () => {
    session = await startSession();
    token = await apiSignIn(session.server.url, 'editor', 'editor123');
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('opens every public route of spec §2 in the shared layout with its Chinese title', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    for (const route of PUBLIC_ROUTES) {
      const path = concrete(route.pattern);
      await page.goto(path);
      await page.locator('.wx-public-header').waitFor();
      await page.locator('.wx-public-footer').getByText('2024').waitFor();
      if (route.screen) {
        await page.getByRole('heading', { name: route.title, exact: true }).waitFor();
      } else {
        // /cloud/api: the layout without a screen.
        await page.locator('.wx-public-main').waitFor();
        expect(await page.locator('.wx-public-main h2').count()).toBe(0);
      }
      expect(new URL(page.url()).pathname).toBe(path);
    }
    // Signed in: the header shows the name instead of 登录.
    await page.goto('/');
    await page.locator('.wx-public-account-name').getByText('编辑').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('remembers the public path and query; /scan_login returns there after signing in', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/doc/search?q=%E5%90%88%E5%90%8C&page=2');
    await page.getByRole('heading', { name: '文档搜索', exact: true }).waitFor();
    await page.locator('.wx-public-nav').getByText('配色工具').click();
    await page.getByRole('heading', { name: '配色工具', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('publicPath'))).toBe('/color');
    await page.goBack();
    await page.getByRole('heading', { name: '文档搜索', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('publicPath'))).toBe(
      '/doc/search?q=%E5%90%88%E5%90%8C&page=2',
    );

    await page.locator('.wx-public-header').getByRole('link', { name: '登录' }).click();
    await page.waitForURL((url) => url.pathname === '/scan_login');
    await page.locator('img[alt="验证码"]').waitFor();
    await fillLogin(page, 'admin', TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE);
    await page.waitForURL((url) => url.pathname === '/doc/search');
    expect(new URL(page.url()).search).toBe('?q=%E5%90%88%E5%90%8C&page=2');
    await page.locator('.wx-public-account-name').getByText('admin').waitFor();
    await close();
  });

  it('signs out from the public header', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, await apiSignIn(session.server.url, 'operator', 'operator123'));
    await page.goto('/photo');
    await page.locator('.wx-public-account-button').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.locator('.wx-public-header').getByRole('link', { name: '登录' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/photo');
    await close();
  });

  it('looks finished on a desktop', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/');
    await page.getByRole('heading', { name: '博客', exact: true }).waitFor();
    await screenshot(page, 'public-desktop');
    await close();
  });

  it('fits 375 px without horizontal scrolling; the nav folds into a menu', async () => {
    const { page, errors, close } = await openPage(session, { width: 375, height: 740 });
    await page.goto('/doc/category');
    await page.getByRole('heading', { name: '文档分类', exact: true }).waitFor();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    expect(await page.locator('.wx-public-nav').isVisible()).toBe(false);
    await screenshot(page, 'public-375');

    await page.getByRole('button', { name: '打开导航菜单' }).click();
    const fold = page.locator('.wx-public-fold');
    await fold.waitFor();
    expect(await overflow()).toBe(0);
    await screenshot(page, 'public-375-menu');
    await fold.getByRole('link', { name: '电影' }).click();
    await page.getByRole('heading', { name: '电影', exact: true }).waitFor();
    await fold.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await close();
  });
});
