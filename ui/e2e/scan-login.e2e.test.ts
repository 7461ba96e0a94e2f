/**
 * Scan login end to end: browser A waits on /scan_login, browser B (signed in as editor) opens the
 * confirm URL from A's QR code, sees who asks and confirms or cancels; A follows by websocket.
 * Expiry runs on A's page clock (page.clock), so nobody waits two minutes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  fillLogin,
  openPage,
  type Session,
  screenshot,
  sidewaysScroll,
  startSession,
  TEST_CAPTCHA_CODE,
  TEST_DEMO_PASSWORD,
} from './harness';

/** The confirm URL under A's QR code (data-confirm-url), once a ticket is shown. */
async function confirmUrlOf(page: Page): Promise<string> {
  const qr = page.locator('.wx-qr[data-confirm-url]');
  await qr.waitFor();
  await page.getByAltText('登录二维码').waitFor();
  return (await qr.getAttribute('data-confirm-url')) as string;
}

describe.runIf(browserAvailable())('scan login (e2e)', () => {
  let session: Session;
  let editorToken: string;
  beforeAll(async () => {
    session = await startSession();
    editorToken = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
  });
  afterAll(async () => {
    await session?.stop();
  });

  /** Browser B: signed in as editor, at the confirm URL. */
  async function phone(url: string, width = 375) {
    const b = await openPage(session, { width, height: 760 });
    // As a sign-in would have left it (useToken, inlined: it is not a React hook).
    await b.page.goto('/favicon.svg');
    await b.page.evaluate((token) => window.localStorage.setItem('token', token), editorToken);
    await b.page.goto(new URL(url).pathname);
    return b;
  }

  it('A waits, B confirms; A is signed in and back on the remembered public page', async () => {
    const a = await openPage(session);
    await a.page.goto('/color');
    await a.page.getByRole('heading', { name: '配色工具', exact: true }).waitFor();
    await a.page.locator('.wx-public-header').getByRole('link', { name: '登录' }).click();
    await a.page.waitForURL((url) => url.pathname === '/scan_login');
    expect(await a.page.getByRole('tab', { name: '扫码登录' }).getAttribute('aria-selected')).toBe('true');
    const url = await confirmUrlOf(a.page);
    expect(url).toMatch(new RegExp(`^${session.server.url}/scan_login/confirm/[A-Za-z0-9_-]{43}$`));
    await a.page.getByText('等待扫码').waitFor();
    await a.page
      .locator('.wx-qr-countdown')
      .getByText(/^[12]:\d\d$/)
      .waitFor();

    const b = await phone(url);
    await b.page.getByRole('heading', { name: '确认登录' }).waitFor();
    // Who is asking: A's browser and address, and when.
    expect(await b.page.locator('[data-field="device"]').textContent()).toMatch(/^Chrome \d+ · Linux$/);
    expect(await b.page.locator('[data-field="ip"]').textContent()).toBe('127.0.0.1');
    expect(await b.page.locator('[data-field="time"]').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await sidewaysScroll(b.page)).toBe(0);

    expect(await b.page.locator('[data-field="account"]').textContent()).toBe('编辑演示账号（editor）');

    // A hears of the scan by push.
    await a.page.getByText('已扫码，请在手机上确认').waitFor();
    await screenshot(b.page, 'scan-login-confirm-375');

    await b.page.getByRole('button', { name: '确认登录' }).click();
    await b.page.getByRole('heading', { name: '已确认登录' }).waitFor();
    await screenshot(b.page, 'scan-login-confirmed-375');

    await a.page.waitForURL((u) => u.pathname === '/color');
    await a.page.locator('.wx-public-account-name').getByText('editor').waitFor();
    const token = await a.page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    expect(token).not.toBe(editorToken);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.close();
    await b.close();
  });

  it('a protected page sends a signed-out visitor to /scan_login and is where they return (password or scan)', async () => {
    // 密码登录 from /music.
    const a = await openPage(session);
    await a.page.goto('/music');
    await a.page.waitForURL((u) => u.pathname === '/scan_login');
    await a.page.getByRole('tab', { name: '密码登录' }).click();
    await fillLogin(a.page, 'editor', TEST_DEMO_PASSWORD, TEST_CAPTCHA_CODE);
    await a.page.waitForURL((u) => u.pathname === '/music');
    await a.page.locator('.wx-public-account-name').getByText('editor').waitFor();

    // 扫码登录 from /job with a query: the path and the query come back.
    const c = await openPage(session);
    await c.page.goto('/job?page=2');
    await c.page.waitForURL((u) => u.pathname === '/scan_login');
    await c.page.getByRole('link', { name: '← 返回网站' }).waitFor();
    expect(await c.page.getByRole('link', { name: '← 返回网站' }).getAttribute('href')).toBe('/job?page=2');
    const b = await phone(await confirmUrlOf(c.page));
    await b.page.getByRole('button', { name: '确认登录' }).click();
    await b.page.getByRole('heading', { name: '已确认登录' }).waitFor();
    await c.page.waitForURL((u) => u.pathname === '/job' && u.search === '?page=2');
    expect(a.errors).toEqual([]);
    expect(c.errors).toEqual([]);
    await a.close();
    await b.close();
    await c.close();
  });

  it('B cancels: A shows 已取消 and 重新获取 gives a new code', async () => {
    const a = await openPage(session);
    await a.page.goto('/scan_login');
    const url = await confirmUrlOf(a.page);
    const b = await phone(url, 1280);
    await b.page.getByRole('button', { name: /^取\s?消$/ }).click();
    await b.page.getByRole('heading', { name: '已取消登录' }).waitFor();

    await a.page.locator('.wx-qr[data-state="cancelled"]').waitFor();
    await a.page.getByText('本次登录已在手机上取消').waitFor();
    await a.page.getByRole('button', { name: /重新获取/ }).click();
    await a.page.getByText('等待扫码').waitFor();
    expect(await confirmUrlOf(a.page)).not.toBe(url);

    // The used code cannot be confirmed any more.
    await b.page.goto(new URL(url).pathname);
    await b.page.getByRole('heading', { name: '无法完成扫码登录' }).waitFor();
    await b.page.getByText('本次登录已取消，请在登录页重新获取二维码').waitFor();
    await a.close();
    await b.close();
  });

  it('a signed-out phone gets the password form in place, then the confirmation', async () => {
    const a = await openPage(session);
    await a.page.goto('/scan_login');
    const url = await confirmUrlOf(a.page);
    const b = await openPage(session, { width: 375, height: 760 });
    await b.page.goto(new URL(url).pathname);
    await b.page.getByRole('heading', { name: '登录后确认' }).waitFor();
    await b.page.locator('img[alt="验证码"]').waitFor();
    expect(new URL(b.page.url()).pathname).toBe(new URL(url).pathname);
    expect(await sidewaysScroll(b.page)).toBe(0);
    await screenshot(b.page, 'scan-login-confirm-signed-out-375');
    await fillLogin(b.page, 'editor', TEST_DEMO_PASSWORD, TEST_CAPTCHA_CODE);
    await b.page.getByRole('heading', { name: '确认登录' }).waitFor();
    await b.page.getByRole('button', { name: '确认登录' }).click();
    await a.page.waitForURL((u) => u.pathname === '/');
    await a.close();
    await b.close();
  });

  it('an expired code is replaced by itself a few times, then waits for 刷新', async () => {
    const a = await openPage(session);
    await a.page.clock.install();
    await a.page.goto('/scan_login');
    let url = await confirmUrlOf(a.page);
    const seen = new Set([url]);
    // QR_AUTO_REFRESH_LIMIT (5) new codes without asking …
    for (let i = 0; i < 5; i++) {
      await a.page.clock.fastForward(121_000);
      await a.page.waitForFunction((old) => {
        const now = document.querySelector('.wx-qr[data-confirm-url]')?.getAttribute('data-confirm-url');
        return now && now !== old && document.querySelector('img[alt="登录二维码"]');
      }, url);
      url = await confirmUrlOf(a.page);
      seen.add(url);
    }
    expect(seen.size).toBe(6);
    // … then the screen stays expired until the user asks.
    await a.page.clock.fastForward(121_000);
    const refresh = a.page.getByRole('button', { name: /刷新/ });
    await refresh.waitFor();
    await a.page.getByText('二维码已过期').waitFor();
    await screenshot(a.page, 'scan-login-expired-1280');
    await refresh.click();
    await a.page.getByText('等待扫码').waitFor();
    expect(seen.has(await confirmUrlOf(a.page))).toBe(false);
    await a.close();
  });

  it('looks finished: both tabs at 1280 px and 375 px', async () => {
    for (const width of [1280, 375]) {
      const { page, errors, close } = await openPage(session, { width, height: width === 375 ? 760 : 800 });
      await page.goto('/scan_login');
      await confirmUrlOf(page);
      await page.getByText('等待扫码').waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await screenshot(page, `scan-login-qr-${width}`);
      await page.getByRole('tab', { name: '密码登录' }).click();
      await page.locator('img[alt="验证码"]').waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await screenshot(page, `scan-login-password-${width}`);
      expect(errors).toEqual([]);
      await close();
    }
    // One browser at a time on screen (a page in the background may not repaint before a shot):
    // A's states are driven through the API here.
    const a = await openPage(session);
    await a.page.goto('/scan_login');
    const url = await confirmUrlOf(a.page);
    const ticket = new URL(url).pathname.split('/').pop();
    const post = (action: string) =>
      fetch(`${session.server.url}/api/login/qr/${ticket}/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editorToken}` },
      });
    await post('scan');
    await a.page.getByText('已扫码，请在手机上确认').waitFor();
    await screenshot(a.page, 'scan-login-scanned-1280');
    await post('cancel');
    await a.page.getByText('本次登录已在手机上取消').waitFor();
    await screenshot(a.page, 'scan-login-cancelled-1280');
    await a.close();

    const other = await openPage(session);
    await other.page.goto('/scan_login');
    const b = await phone(await confirmUrlOf(other.page), 1280);
    await other.close();
    await b.page.getByRole('heading', { name: '确认登录' }).waitFor();
    await screenshot(b.page, 'scan-login-confirm-1280');
    await b.close();
  });
});
