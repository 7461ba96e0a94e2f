/**
 * The document library in a real browser against the built server with the demo content:
 * category tree with counts, list paging, search with highlighted hits (合同, and 劳动合同 as a
 * phrase), the reader behind login with the URL following the page, at 1280 and 375 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  sidewaysScroll,
  startSession,
  useToken as storeToken,
  TEST_DEMO_PASSWORD,
} from './harness';

interface Hit {
  id: number;
  title: string;
  pageCount: number;
}

describe.runIf(browserAvailable())('document library (e2e)', () => {
  let session: Session;
  let token: string;
  let doc: Hit;
  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
    const res = await fetch(
      `${session.server.url}/api/public/docs?q=${encodeURIComponent('劳动合同')}&limit=50`,
    );
    const body = (await res.json()) as { data: { results: Hit[] } };
    doc = body.data.results.find((r) => r.pageCount >= 3) as Hit;
    expect(doc).toBeTruthy();
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('shows the category tree with counts and opens a category with its breadcrumb', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/doc/category');
    const tree = (await (await fetch(`${session.server.url}/api/public/doc/categories`)).json()) as {
      data: { name: string; count: number; children: { id: number; name: string; count: number }[] }[];
    };
    const law = tree.data.find((c) => c.name === '法律');
    expect(law && law.count > 0).toBe(true);
    const card = page.locator('.wx-doc-cat').filter({ hasText: '法律' }).first();
    await card.locator('.wx-doc-cat-head .wx-doc-count').getByText(String(law?.count)).waitFor();
    const child = law?.children.find((c) => c.count > 0);
    await card.getByRole('link', { name: new RegExp(`^${child?.name}`) }).click();
    await page.waitForURL(`**/doc/list/${child?.id}`);
    await page.getByRole('heading', { name: child?.name, exact: true }).waitFor();
    const crumbs = page.getByRole('navigation', { name: '位置' });
    expect(await crumbs.locator('li').allInnerTexts()).toEqual(['文档分类', '法律', child?.name]);
    expect(await page.locator('.wx-doc-item').count()).toBe(Math.min(10, child?.count ?? 0));
    expect(errors).toEqual([]);
    await close();
  });

  it('pages through the list of all documents', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/doc/list');
    await page.locator('.wx-doc-item').first().waitFor();
    expect(await page.locator('.wx-doc-item').count()).toBe(10);
    const first = await page.locator('.wx-doc-item-title').allInnerTexts();
    await page.getByRole('navigation', { name: '分页' }).getByRole('link', { name: '下一页' }).click();
    await page.waitForURL('**/doc/list?page=2');
    await page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    await page.waitForFunction(
      (before) => document.querySelector('.wx-doc-item-title')?.textContent !== before,
      first[0],
    );
    const second = await page.locator('.wx-doc-item-title').allInnerTexts();
    expect(second.some((t) => first.includes(t))).toBe(false);
    expect(errors).toEqual([]);
    await close();
  });

  it('searches 合同 with highlighted hits, 劳动合同 as a phrase, and filters by 效力', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/doc/search?q=合同');
    await page.getByText(/找到\s*\d+\s*篇与「合同」相关的文档/).waitFor();
    const marks = await page.locator('.wx-doc-list mark').allInnerTexts();
    expect(marks.length).toBeGreaterThan(5);
    expect(new Set(marks)).toEqual(new Set(['合同']));
    // Never HTML from the server: the snippet is text and <mark> elements only.
    expect(await page.locator('.wx-doc-snippet *:not(mark):not(.wx-doc-hitpage)').count()).toBe(0);

    await page.getByLabel('搜索文档').fill('劳动合同');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForURL(/q=%E5%8A%B3%E5%8A%A8%E5%90%88%E5%90%8C/);
    await page.locator('.wx-doc-panel[aria-busy="false"]').waitFor();
    await page.getByText(/篇与「劳动合同」相关的文档/).waitFor();
    const phrase = await page.locator('.wx-doc-list mark').allInnerTexts();
    expect(phrase.length).toBeGreaterThan(0);
    expect(new Set(phrase)).toEqual(new Set(['劳动合同']));

    await page.getByLabel('效力').selectOption('repealed');
    await page.waitForURL(/validity=repealed/);
    await page.locator('.wx-doc-panel[aria-busy="false"]').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.wx-doc-item .wx-doc-validity')].every(
        (e) => e.textContent === '已废止',
      ),
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('sends signed-out readers of a document to /scan_login', async () => {
    const { page, close } = await openPage(session);
    await page.goto(`/doc/detail/${doc.id}`);
    await page.waitForURL('**/scan_login**');
    await close();
  });

  it('reads a document page by page when signed in; the URL follows the page', async () => {
    const { page, errors, close } = await openPage(session);
    await storeToken(page, token);
    await page.goto(`/doc/detail/${doc.id}`);
    await page.getByRole('heading', { name: doc.title, exact: true }).waitFor();
    await page.getByText(`第 1 页 / 共 ${doc.pageCount} 页`).waitFor();
    const pager = page.getByRole('navigation', { name: '正文分页' });
    await pager.getByRole('link', { name: '下一页' }).click();
    await page.waitForURL(`**/doc/detail/${doc.id}/2`);
    await page.getByText(`第 2 页 / 共 ${doc.pageCount} 页`).waitFor();
    await pager.getByRole('link', { name: `第 ${doc.pageCount} 页` }).click();
    await page.waitForURL(`**/doc/detail/${doc.id}/${doc.pageCount}`);
    await page.getByText(`第 ${doc.pageCount} 页 / 共 ${doc.pageCount} 页`).waitFor();
    await page.goBack();
    await page.waitForURL(`**/doc/detail/${doc.id}/2`);
    await page.getByText(`第 2 页 / 共 ${doc.pageCount} 页`).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('looks finished at 1280 and 375 px (screenshots)', async () => {
    for (const width of [1280, 375]) {
      const { page, errors, close } = await openPage(session, { width, height: width === 375 ? 812 : 800 });
      await storeToken(page, token);
      await page.goto('/doc/category');
      await page.locator('.wx-doc-cat').first().waitFor();
      await screenshot(page, `doc-category-${width}`, { fullPage: true });
      await page.goto('/doc/search?q=合同');
      await page.locator('.wx-doc-list mark').first().waitFor();
      await screenshot(page, `doc-search-${width}`, { fullPage: true });
      await page.goto(`/doc/detail/${doc.id}/2`);
      await page.getByText(`第 2 页 / 共 ${doc.pageCount} 页`).waitFor();
      await screenshot(page, `doc-detail-${width}`, { fullPage: true });
      // Nothing wider than the screen.
      expect(await sidewaysScroll(page)).toBe(0);
      expect(errors).toEqual([]);
      await close();
    }
  });
});
