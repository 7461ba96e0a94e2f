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
  sidewaysScroll,
  startSession,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
  TEST_DEMO_PASSWORD,
  useToken,
} from './harness';

interface Sample {
  /** A concrete path per route pattern, with ids of demo rows. */
  paths: Record<string, string>;
  /** The heading a parameterised route shows: the title of its row. */
  headings: Record<string, string>;
}

async function publicData<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  const body = (await res.json()) as { data: T };
  return body.data;
}

/** Real rows of the demo content for the routes that take an id. */
async function sample(base: string): Promise<Sample> {
  type Page<R> = { results: R[] };
  const article = (
    await publicData<Page<{ id: number; title: string }>>(base, '/api/public/articles?limit=1')
  ).results[0];
  const doc = (
    await publicData<Page<{ id: number; title: string; categoryId: number }>>(
      base,
      '/api/public/docs?limit=1',
    )
  ).results[0];
  const movie = (
    await publicData<Page<{ id: number; title: string; year: number }>>(base, '/api/public/movies?limit=1')
  ).results[0];
  if (!article || !doc || !movie) throw new Error('the demo content has no article, document or movie');
  type Node = { id: number; name: string; children: Node[] };
  const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
  const tree = await publicData<Node[]>(base, '/api/public/doc/categories');
  const category = flat(tree).find((c) => c.id === doc.categoryId);
  if (!category) throw new Error(`document ${doc.id}'s category is not in the tree`);
  return {
    paths: {
      '/article/:id': `/article/${article.id}`,
      '/doc/detail/:id/:page?': `/doc/detail/${doc.id}`,
      '/doc/list/:categoryId?': `/doc/list/${category.id}`,
      '/movie/:id': `/movie/${movie.id}`,
    },
    headings: {
      '/article/:id': article.title,
      '/doc/detail/:id/:page?': doc.title,
      '/doc/list/:categoryId?': category.name,
      '/movie/:id': `${movie.title} (${movie.year})`,
    },
  };
}

describe.runIf(browserAvailable())('public site (e2e)', () => {
  let session: Session;
  let token: string;
  let rows: Sample;
  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
    rows = await sample(session.server.url);
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('opens every public route of spec §2 in the shared layout with its Chinese title', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    for (const route of PUBLIC_ROUTES) {
      const path = rows.paths[route.pattern] ?? route.pattern;
      await page.goto(path);
      await page.locator('.wx-public-header').waitFor();
      await page.locator('.wx-public-footer').getByText('2024').waitFor();
      if (route.screen) {
        const heading = rows.headings[route.pattern] ?? route.title;
        await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      } else {
        // /cloud/api: the layout without a screen.
        await page.locator('.wx-public-main').waitFor();
        expect(await page.locator('.wx-public-main h1').count()).toBe(0);
      }
      expect(new URL(page.url()).pathname).toBe(path);
    }
    // Signed in: the header shows the name instead of 登录.
    await page.goto('/');
    await page.locator('.wx-public-account-name').getByText('编辑').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('signed out: every open public route shows its screen, every protected one goes to /scan_login', async () => {
    const { page, errors, close } = await openPage(session);
    for (const route of PUBLIC_ROUTES) {
      const path = rows.paths[route.pattern] ?? route.pattern;
      await page.goto(path);
      if (route.requiresLogin) {
        await page.waitForURL((url) => url.pathname === '/scan_login');
        await page.getByRole('tab', { name: '扫码登录' }).waitFor();
        continue;
      }
      await page.locator('.wx-public-header').getByRole('link', { name: '登录' }).waitFor();
      if (route.screen) {
        const heading = rows.headings[route.pattern] ?? route.title;
        await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      }
      expect(new URL(page.url()).pathname).toBe(path);
    }
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
    // 扫码登录 is the default tab; this test signs in with the password.
    await page.getByRole('tab', { name: '密码登录' }).click();
    await page.locator('img[alt="验证码"]').waitFor();
    await fillLogin(page, 'admin', TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE);
    await page.waitForURL((url) => url.pathname === '/doc/search');
    expect(new URL(page.url()).search).toBe('?q=%E5%90%88%E5%90%8C&page=2');
    await page.locator('.wx-public-account-name').getByText('admin').waitFor();
    await close();
  });

  it('signs out from the public header', async () => {
    const { page, close } = await openPage(session);
    await useToken(page, await apiSignIn(session.server.url, 'operator', TEST_DEMO_PASSWORD));
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
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await page.locator('.wx-public-nav').isVisible()).toBe(false);
    await screenshot(page, 'public-375');

    await page.getByRole('button', { name: '打开导航菜单' }).click();
    const fold = page.locator('.wx-public-fold');
    await fold.waitFor();
    expect(await sidewaysScroll(page)).toBe(0);
    await screenshot(page, 'public-375-menu');
    await fold.getByRole('link', { name: '电影' }).click();
    await page.getByRole('heading', { name: '电影', exact: true }).waitFor();
    await fold.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await close();
  });
});
