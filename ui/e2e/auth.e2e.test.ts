/**
 * Signing in and out, the guards of spec §2/§4/§5 and the session rows of the error catalogue
 * (spec §8), in Chromium against the built product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  fillLogin,
  notices,
  openPage,
  type Session,
  screenshot,
  startSession,
  storedToken,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
  TEST_DEMO_PASSWORD,
  useToken,
} from './harness';

describe.runIf(browserAvailable())('sign-in, guards and session (e2e)', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession();
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('signs the administrator in on /admin/login and lands on /admin with the menu', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/admin/login');
    await page.locator('img[alt="验证码"]').waitFor();
    await page.getByText('账号登录').waitFor();
    await page.locator('button[type="submit"]:not([disabled])').waitFor();
    await screenshot(page, 'login');

    await fillLogin(page, 'admin', TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE);
    // Watched from the moment the form is sent: the notice shows for 3 s, and on a loaded machine
    // the landing page can take longer than that to show its heading.
    const welcomed = notices(page).filter({ hasText: '登录成功' }).first().waitFor({ timeout: 30_000 });
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await welcomed;
    const menu = page.locator('.wx-admin-menu');
    await menu.getByText('用户管理').waitFor();
    await menu.getByText('平台配置').waitFor();
    // The name signed in with (spec §3 _username); /api/user/current fills it only when empty.
    expect(await page.locator('.wx-admin-name').textContent()).toBe('admin');
    expect(await storedToken(page)).toMatch(/\S{20,}/);
    // publicConfig.pageTitle, which defaults to the product name.
    expect(await page.title()).toBe('万象');
    // The notice goes by itself after its 3 s (it may be gone already on a loaded machine, so
    // not closed by hand): the screenshot is of the layout alone.
    await notices(page).first().waitFor({ state: 'detached' });
    await screenshot(page, 'admin-layout');
    expect(errors).toEqual([]);
    await close();
  });

  it('a page handed on to the next test keeps nothing of the last one: storage, cookies, routes, listeners', async () => {
    const first = await openPage(session);
    await first.page.goto('/admin/login');
    await first.page.locator('img[alt="验证码"]').waitFor();
    await first.page.evaluate(() => {
      window.localStorage.setItem('token', 'left-behind');
      window.sessionStorage.setItem('pendingNotices', '[]');
    });
    await first.context.addCookies([{ name: 'left', value: 'behind', url: session.server.url }]);
    await first.page.route('**/api/captcha/request', (route) => route.abort());
    let heardByFirst = 0;
    first.page.on('request', () => {
      heardByFirst++;
    });
    await first.close();

    const next = await openPage(session);
    expect(next.page).toBe(first.page); // kept, not a new context (harness.ts openPage)
    const heardBefore = heardByFirst;
    await next.page.goto('/admin/login');
    // The captcha's route is gone: its image arrives.
    await next.page.locator('img[alt="验证码"]').waitFor();
    expect(
      await next.page.evaluate(() => [
        window.localStorage.getItem('token'),
        window.sessionStorage.length,
        document.cookie,
      ]),
    ).toEqual([null, 0, '']);
    expect(heardByFirst).toBe(heardBefore);
    expect(next.errors).toEqual([]);
    await next.close();
  });

  it('asks for every field with core’s form messages before calling the server', async () => {
    const { page, close } = await openPage(session);
    const signIns: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/login/signin')) signIns.push(r.url());
    });
    await page.goto('/admin/login');
    await page.locator('img[alt="验证码"]').waitFor();
    await page.locator('button[type="submit"]').click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByText('请输入密码').waitFor();
    await page.getByText('请输入验证码').waitFor();
    await page.getByPlaceholder('用户名').fill('admin');
    await page.getByText('请输入用户名').waitFor({ state: 'detached' });
    expect(signIns).toEqual([]);
    await close();
  });

  it('a wrong captcha toasts 登录失败 with code 10001 and shows a new captcha', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/admin/login');
    const image = page.locator('img[alt="验证码"]');
    await image.waitFor();
    const before = await image.getAttribute('src');

    await fillLogin(page, 'admin', TEST_ADMIN_PASSWORD, 'wrong');
    const toast = notices(page).filter({ hasText: '登录失败' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('10001');
    await page.waitForFunction((previous) => {
      const img = document.querySelector<HTMLImageElement>('img[alt="验证码"]');
      return img !== null && img.getAttribute('src') !== previous;
    }, before);
    // The old answer is cleared for the new image; the user stays on the login screen.
    expect(await page.getByPlaceholder('验证码').inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await storedToken(page)).toBeNull();
    await close();
  });

  it('a click on the captcha fetches a new one', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/admin/login');
    const image = page.locator('img[alt="验证码"]');
    await image.waitFor();
    const before = await image.getAttribute('src');
    const next = page.waitForResponse((r) => r.url().endsWith('/api/captcha/request'));
    await page.getByRole('button', { name: '看不清？点击图片换一张' }).click();
    await next;
    await page.waitForFunction(
      (previous) => document.querySelector('img[alt="验证码"]')?.getAttribute('src') !== previous,
      before,
    );
    await close();
  });

  it('sends signed-out visitors of admin routes to /admin/login', async () => {
    const { page, close } = await openPage(session);
    for (const path of ['/admin', '/admin/OMS/order', '/admin/sys-tools/monitor', '/admin/no/such/screen']) {
      const monitorCalls: string[] = [];
      const onRequest = (r: { url(): string }) => {
        if (r.url().includes('/api/admin/')) monitorCalls.push(r.url());
      };
      page.on('request', onRequest);
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/admin/login');
      await page.getByText('账号登录').waitFor();
      // The monitor's loader waits for the guard: no call that would answer 401 and reload.
      expect(monitorCalls).toEqual([]);
      page.off('request', onRequest);
    }
    await close();
  });

  it('sends signed-out visitors of protected public routes to /scan_login', async () => {
    const { page, close } = await openPage(session);
    for (const path of ['/music', '/doc/detail/1', '/doc/detail/1/2', '/movie/1', '/job', '/ssl']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/scan_login');
      await page.getByText('密码登录').waitFor();
    }
    // The open ones stay.
    for (const [path, title] of [
      ['/movie', '电影'],
      ['/doc/list', '全部文档'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await close();
  });

  it('sends a signed-in visitor of /admin/login to /admin', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD));
    await page.goto('/admin/login');
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await close();
  });

  it('ejects a user without roles with the exact message, signs out and returns to /admin/login', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/admin/login');
    await page.locator('img[alt="验证码"]').waitFor();
    const signOut = page.waitForResponse((r) => r.url().endsWith('/api/login/signout'));
    await fillLogin(page, 'guest', TEST_DEMO_PASSWORD, TEST_CAPTCHA_CODE);
    const toast = notices(page).filter({ hasText: '你没有任何权限' });
    await toast.waitFor();
    expect((await toast.locator('.ant-notification-notice-title').textContent())?.trim()).toBe(
      '你没有任何权限！即将退出登录',
    );
    expect((await signOut).status()).toBe(200);
    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByText('账号登录').waitFor();
    expect(await storedToken(page)).toBeNull();
    // Once: no second notice, no second sign-out.
    expect(await toast.count()).toBe(1);
    await close();
  });

  it('signs out with 退出登录: the token is removed here and revoked on the server', async () => {
    const { page, close } = await openPage(session);
    const token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    await useToken(page, token);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/login');
    expect(await storedToken(page)).toBeNull();
    const after = await fetch(`${session.server.url}/api/user/current`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(401);
    await close();
  });

  it('after a server-side revocation the next call answers 401: 登录超时, back to /admin/login', async () => {
    const { page, close } = await openPage(session);
    const token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    await useToken(page, token);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();

    // Revoked from outside the page, as another device or an administrator would.
    const revoked = await fetch(`${session.server.url}/api/login/signout`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);

    // The next call of the page: the monitor's loader.
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/server-monitor'));
    await page.locator('.wx-admin-menu').getByText('平台配置').click();
    await page.locator('.wx-admin-menu').getByText('服务器监控').click();
    expect((await answer).status()).toBe(401);

    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByText('账号登录').waitFor();
    // Shown across the reload (a flash notice).
    const toast = notices(page).filter({ hasText: '登录超时' });
    await toast.waitFor();
    expect(await toast.locator('.ant-notification-notice-title').textContent()).toMatch(/^登录超时/);
    expect(await toast.getAttribute('class')).toContain('warning');
    expect(await storedToken(page)).toBeNull();
    await close();
  });

  it('shows the editor only the areas of the editor role, and 403 for the others', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD));
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    const menu = page.locator('.wx-admin-menu');
    for (const title of ['社区与评价', '文档库', '博客', '音乐', '电影'])
      await menu.getByText(title, { exact: true }).waitFor();
    for (const title of ['用户管理', '门店', '订单', '平台配置', '财务']) {
      expect(await menu.getByText(title, { exact: true }).count()).toBe(0);
    }
    await menu.getByText('博客', { exact: true }).click();
    await menu.getByText('文章', { exact: true }).waitFor();
    // The group has finished unfolding.
    await page.waitForFunction(
      () => document.querySelector('.wx-admin-menu [class*="ant-motion-collapse"]') === null,
    );
    await screenshot(page, 'editor-menu');

    await page.goto('/admin/sys-user');
    await page.getByText('403').waitFor();
    await page.getByText('抱歉，你没有访问此页面的权限，请联系管理员开通。').waitFor();
    await page.getByRole('button', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    expect(errors).toEqual([]);
    await close();
  });
});
