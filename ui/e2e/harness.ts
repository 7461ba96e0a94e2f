/**
 * What every end-to-end file needs: the built server (testing/built-server.ts), Debian's Chromium,
 * a page that records console errors, and sign-in through the API for tests that are not about
 * the login screen.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  type BuiltServer,
  startBuiltServer,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
  TEST_DEMO_PASSWORD,
} from '../../testing/built-server';

export { TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE, TEST_DEMO_PASSWORD };

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Whether this run has a browser. Without one: CI fails loudly, a developer's machine skips the
 * browser tests with a notice.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: end-to-end tests must run in CI (apt-get install -y chromium)`,
    );
  }
  console.warn(`[e2e] ${CHROMIUM_PATH} not found: skipping the browser tests (apt-get install -y chromium)`);
  return false;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Session {
  server: BuiltServer;
  browser: Browser;
  /** Pages a test closed, kept for the next `openPage` of this file (see `openPage`). */
  idlePages: Map<string, IdlePage[]>;
  stop(): Promise<void>;
}

interface IdlePage {
  context: BrowserContext;
  page: Page;
}

/** `env` for the server, e.g. `{ WANXIANG_DEMO: 'on' }` for the demo content (accounts only by default). */
export async function startSession(env: Record<string, string> = {}): Promise<Session> {
  const server = await startBuiltServer(env);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    browser,
    idlePages: new Map(),
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** console warnings seen so far (Chromium's own, e.g. about an unused preload, among them). */
  warnings: string[];
  close(): Promise<void>;
}

/**
 * A page of its own for a test: nothing of an earlier test's visit in it (no storage, cookies,
 * permissions, routes or listeners), at the size and time zone asked for.
 *
 * A page a test closed is kept and handed to the file's next test, its origin's data cleared,
 * instead of a new browser context each time: a new context is a new renderer process with an
 * empty cache, which compiles the whole app again — measured on the 2-core CI machine, a context
 * and the login page cost 3.9–4.8 s of Chromium's CPU against 0.6–0.9 s for the same page
 * loaded again in a kept one, and the browser files were half of the suite. What is kept is what a
 * returning visitor's browser keeps: the HTTP cache (the API answers `no-store`) and V8's code
 * cache. A page whose clock a test took over (`page.clock`, an init script of the context that
 * cannot be removed) is closed with its context, not kept.
 */
export async function openPage(
  session: Session,
  /** `timezoneId`: the browser's zone (e.g. 'UTC'); the machine's by default. */
  options: { width?: number; height?: number; timezoneId?: string } = {},
): Promise<TestPage> {
  const viewport = { width: options.width ?? 1280, height: options.height ?? 800 };
  const key = options.timezoneId ?? '';
  const idle = session.idlePages.get(key)?.pop();
  let context: BrowserContext;
  let page: Page;
  if (idle) {
    ({ context, page } = idle);
    await page.setViewportSize(viewport);
  } else {
    context = await session.browser.newContext({
      baseURL: session.server.url,
      viewport,
      locale: 'zh-CN',
      // As a user who turned animations off: antd then opens and closes at once (app/Root.tsx), so a
      // test waits for the state, not a transition, and the software-rendered frames of each
      // transition are not drawn — the browser was the suite's largest CPU user.
      reducedMotion: 'reduce',
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    });
    page = await context.newPage();
  }
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    // On a page that is not HTML (useToken's /favicon.svg) Chromium asks for /favicon.ico, which
    // the site does not have (its pages name /favicon.svg): the server's 404 is right.
    if (message.location().url.endsWith('/favicon.ico')) return;
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  let closed = false;
  return {
    context,
    page,
    errors,
    warnings,
    async close() {
      if (closed) return;
      closed = true;
      if (await clearForNextTest(session, context, page)) {
        const list = session.idlePages.get(key) ?? [];
        list.push({ context, page });
        session.idlePages.set(key, list);
      } else {
        await context.close();
      }
    },
  };
}

/** Empties a closed test's page for the next test; false when it cannot be reused. */
async function clearForNextTest(session: Session, context: BrowserContext, page: Page): Promise<boolean> {
  try {
    if (page.isClosed()) return false;
    const clockTaken = await page.evaluate(() => '__pwClock' in globalThis);
    if (clockTaken) return false;
    await page.removeAllListeners(undefined, { behavior: 'ignoreErrors' });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    for (const other of context.pages()) if (other !== page) await other.close();
    // sessionStorage belongs to the tab: cleared from the origin's own document before leaving it.
    if (page.url().startsWith(session.server.url)) {
      await page.evaluate(() => window.sessionStorage.clear());
    }
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', {
      origin: session.server.url,
      storageTypes: 'cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems',
    });
    await cdp.detach();
    await context.clearCookies();
    await context.clearPermissions();
    return true;
  } catch {
    return false;
  }
}

/** Signs in through the API (captcha answer from the test server's env): returns the token. */
export async function apiSignIn(baseUrl: string, username: string, password: string): Promise<string> {
  const captcha = (await (await fetch(`${baseUrl}/api/captcha/request`)).json()) as { captchaId: string };
  const res = await fetch(`${baseUrl}/api/login/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password,
      captchaId: captcha.captchaId,
      captchaCode: TEST_CAPTCHA_CODE,
    }),
  });
  const body = (await res.json()) as { success: boolean; data?: { token: string }; message?: string };
  if (!body.success || !body.data) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/** Puts a token where the app keeps it, as a sign-in would have. */
export async function useToken(page: Page, token: string): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/favicon.svg');
  await page.evaluate((t) => window.localStorage.setItem('token', t), token);
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('token'));
}

/** Fills and submits the login form of /admin/login or /scan_login. */
export async function fillLogin(
  page: Page,
  username: string,
  password: string,
  captcha: string,
): Promise<void> {
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByPlaceholder('验证码').fill(captcha);
  await page.locator('button[type="submit"]').click();
}

/** The text of the notifications on screen. */
export function notices(page: Page) {
  return page.locator('.ant-notification-notice');
}

/** A screenshot once fonts are in and transitions have finished (antd animates colour and height). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: options.fullPage ?? false });
}

/** How far the page scrolls sideways, in CSS pixels (0 at any width is the bar: QUALITY.md, 375 px). */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Full-page screenshots at 1280 and 375 px (`{name}-1280`, `{name}-375`); nothing scrolls sideways at 375. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, `${name}-1280`, { fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, `${name}-375`, { fullPage: true });
  if ((await sidewaysScroll(page)) > 0) throw new Error(`${name} scrolls sideways at 375 px`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Opens an admin list screen and its 新建 form; returns the form (modal or drawer). */
export async function openCreateForm(page: Page, adminPath: string) {
  await page.goto(adminPath);
  await page.locator('.wx-resource-table .ant-table').waitFor();
  await page.getByRole('button', { name: /新\s?建$/ }).click();
  const form = page.locator('.wx-resource-modal, .wx-resource-drawer').filter({ visible: true });
  await form.waitFor();
  return form;
}
