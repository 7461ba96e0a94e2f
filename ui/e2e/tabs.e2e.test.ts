/**
 * 多标签页 and the user's preferences on the server, in Chromium against the built product: open
 * screens keep their state when switching and come back after a reload; a column choice and a
 * saved filter made in one browser appear in another; an editor's menu and the 403 screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './admin-api';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  TEST_DEMO_PASSWORD,
  useToken,
} from './harness';

const EDITOR_PASSWORD = TEST_DEMO_PASSWORD;

async function listReady(page: Page, resource: string) {
  const list = page.locator(`[data-resource="${resource}"] .wx-resource-table`);
  await list.locator('.ant-table').waitFor();
  await page.waitForFunction(
    (name) => !document.querySelector(`[data-resource="${name}"] .ant-spin-spinning`),
    resource,
  );
  return list;
}

/** The next saved preference with this key (whose sent value includes `holding`, when given). */
function preferenceSaved(page: Page, key: string, holding?: string) {
  return page.waitForResponse(
    (r) =>
      r.request().method() === 'PUT' &&
      decodeURIComponent(new URL(r.url()).pathname) === `/api/me/preferences/${key}` &&
      (holding === undefined || (r.request().postData() ?? '').includes(holding)) &&
      r.status() === 200,
  );
}

/** Waits until the list of `resource` shows exactly `n` rows. */
function rowCount(page: Page, resource: string, n: number) {
  return page.waitForFunction(
    ([name, count]) =>
      document.querySelectorAll(`[data-resource="${name}"] tbody tr.ant-table-row`).length === count,
    [resource, n] as const,
  );
}

const tabBar = (page: Page) => page.locator('.wx-admin-tabs');
const tab = (page: Page, title: string) => tabBar(page).getByRole('tab', { name: title, exact: true });
const visibleForm = (page: Page) =>
  page.locator('.wx-resource-drawer, .wx-resource-modal').filter({ visible: true });
const headers = (page: Page, resource: string) =>
  page.locator(`[data-resource="${resource}"] .wx-resource-table thead th`).allTextContents();

describe.runIf(browserAvailable())('tabs and preferences (e2e)', () => {
  let session: Session;
  let token: string;
  beforeAll(async () => {
    session = await startSession();
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    const api = adminApi(session.server.url, token);
    const store = await api.create('stores', {
      name: '国贸旗舰店',
      phone: '010-6500 1000',
      address: '北京市朝阳区建国门外大街 1 号',
    });
    await api.create('stores', {
      name: '望京店',
      phone: '010-6470 2000',
      address: '北京市朝阳区望京街 10 号',
    });
    const category = await api.create('goodsCategories', { storeId: store.id, name: '招牌菜' });
    await api.create('goods', {
      storeId: store.id,
      categoryId: category.id,
      name: '宫保鸡丁',
      priceFen: 3280,
    });
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('keeps each screen’s filters and open drawer when switching tabs, and restores the tabs after a reload', async () => {
    const { page, errors, close } = await openPage(session, { width: 1440, height: 900 });
    await useToken(page, token);
    await page.goto('/admin/OMS/store');
    await listReady(page, 'stores');
    const stores = page.locator('[data-resource="stores"]');
    await stores.getByLabel('关键字').fill('国贸');
    await stores.getByRole('button', { name: /^查\s?询$/ }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === '国贸');
    await rowCount(page, 'stores', 1);
    await stores.locator('tbody tr.ant-table-row').filter({ hasText: '国贸旗舰店' }).waitFor();

    // Another screen through the menu, with a half-filled drawer.
    await page.locator('.wx-admin-menu').getByText('商品', { exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/admin/OMS/good');
    await listReady(page, 'goods');
    await page
      .locator('[data-resource="goods"]')
      .getByRole('button', { name: /新\s?建$/ })
      .click();
    await visibleForm(page).getByLabel('商品名称', { exact: true }).fill('回锅肉');

    // Back to 门店 by its tab: the filter and its rows are as they were, the drawer is hidden.
    await tab(page, '门店').click();
    await page.waitForURL((u) => u.pathname === '/admin/OMS/store' && u.searchParams.get('q') === '国贸');
    expect(await stores.getByLabel('关键字').inputValue()).toBe('国贸');
    expect(await stores.locator('tbody tr.ant-table-row').count()).toBe(1);
    await visibleForm(page).waitFor({ state: 'detached' });

    // And to 商品: the drawer is still open with what was typed.
    await tab(page, '商品').click();
    await page.waitForURL((u) => u.pathname === '/admin/OMS/good');
    expect(await visibleForm(page).getByLabel('商品名称', { exact: true }).inputValue()).toBe('回锅肉');
    await visibleForm(page)
      .getByRole('button', { name: /^取\s?消$/ })
      .click();
    await visibleForm(page).waitFor({ state: 'detached' });

    // A few more screens for the picture. The save of the last one is waited for from before it
    // is opened: the list is written 300 ms after it changes, and a slow machine can take longer
    // than that between the tab showing and a wait being set up after it.
    await page.locator('.wx-admin-menu').getByText('订单', { exact: true }).click();
    await tab(page, '订单').waitFor();
    const saved = preferenceSaved(page, 'admin:tabs', '/admin/sys-user');
    await page.locator('.wx-admin-menu').getByText('用户管理', { exact: true }).click();
    await tab(page, '用户管理').waitFor();
    await saved;
    await tab(page, '门店').click();
    await listReady(page, 'stores');
    await screenshot(page, 'tab-bar');

    // After a reload the tabs are back, each with the query it was left at.
    await page.goto('/admin/OMS/good');
    await listReady(page, 'goods');
    for (const title of ['首页', '门店', '商品', '订单', '用户管理']) await tab(page, title).waitFor();
    await tab(page, '门店').click();
    await page.waitForURL((u) => u.pathname === '/admin/OMS/store' && u.searchParams.get('q') === '国贸');
    await listReady(page, 'stores');

    // Closing: × on a tab, then 关闭其他 from its menu.
    await tabBar(page).getByRole('button', { name: '关闭 订单' }).click();
    await tab(page, '订单').waitFor({ state: 'detached' });
    await tab(page, '门店').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await tab(page, '商品').waitFor({ state: 'detached' });
    expect(await tabBar(page).getByRole('tab').allTextContents()).toEqual(['首页', '门店']);
    expect(new URL(page.url()).pathname).toBe('/admin/OMS/store');
    expect(errors).toEqual([]);
    await close();
  });

  it('brings each screen back at the scroll position it was left at', async () => {
    const api = adminApi(session.server.url, token);
    const [store] = await api.list('stores', { q: '国贸' });
    for (let i = 1; i <= 30; i++) {
      await api.create('goodsCategories', {
        storeId: store?.id,
        name: `分类${String(i).padStart(2, '0')}`,
        sort: i,
      });
    }
    const { page, errors, close } = await openPage(session, { width: 1280, height: 600 });
    await useToken(page, token);
    await page.goto('/admin/OMS/category?limit=50');
    await rowCount(page, 'goodsCategories', 31);
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => window.scrollY === 600);

    await tab(page, '首页').click();
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    await page.waitForFunction(() => window.scrollY === 0);

    await tab(page, '商品分类').click();
    await page.waitForURL((u) => u.pathname === '/admin/OMS/category');
    await page.waitForFunction(() => window.scrollY === 600);
    expect(errors).toEqual([]);
    await close();
  });

  it('a column choice and a saved filter made in one browser appear in another for the same user', async () => {
    const first = await openPage(session, { width: 1440, height: 900 });
    await useToken(first.page, token);
    await first.page.goto('/admin/OMS/store');
    await listReady(first.page, 'stores');
    expect(await headers(first.page, 'stores')).toContain('电话');

    await first.page.getByRole('button', { name: '列设置' }).click();
    const columns = preferenceSaved(first.page, 'table:stores');
    await first.page.getByRole('checkbox', { name: '电话' }).uncheck();
    await columns;
    await first.page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-resource="stores"] thead th')].some(
          (th) => th.textContent === '电话',
        ),
    );
    await screenshot(first.page, 'column-settings');
    await first.page.keyboard.press('Escape');

    // A page size of 10 for this list, remembered for the user.
    const size = preferenceSaved(first.page, 'table:stores');
    await first.page.locator('[data-resource="stores"] .ant-pagination-options .ant-select').click();
    await first.page.getByTitle('10 条/页').click();
    await size;

    await first.page.goto('/admin/OMS/store?q=望京');
    await listReady(first.page, 'stores');
    await first.page.getByRole('button', { name: /常用筛选/ }).click();
    await first.page.getByRole('menuitem', { name: '保存当前筛选…' }).click();
    await first.page.getByLabel('名称', { exact: true }).fill('望京的门店');
    const filters = preferenceSaved(first.page, 'filters:stores');
    await first.page
      .locator('.ant-modal')
      .getByRole('button', { name: /^保\s?存$/ })
      .click();
    await filters;
    expect(first.errors).toEqual([]);
    await first.close();

    // Another browser: a new context with its own sign-in.
    const second = await openPage(session);
    await useToken(second.page, await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD));
    await second.page.goto('/admin/OMS/store');
    await listReady(second.page, 'stores');
    expect(
      await second.page.locator('[data-resource="stores"] .ant-pagination-options').textContent(),
    ).toContain('10 条/页');
    const shown = await headers(second.page, 'stores');
    expect(shown).toContain('门店名称');
    expect(shown).not.toContain('电话');
    await second.page.getByRole('button', { name: /常用筛选/ }).click();
    await second.page.getByRole('menuitem', { name: /望京的门店/ }).click();
    await second.page.waitForURL((u) => u.searchParams.get('q') === '望京');
    await rowCount(second.page, 'stores', 1);
    await second.page.locator('[data-resource="stores"] tbody tr', { hasText: '望京店' }).waitFor();
    expect(second.errors).toEqual([]);
    await second.close();
  });

  it('an editor sees no ordering menu and gets the 403 screen on /admin/OMS/order', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, await apiSignIn(session.server.url, 'editor', EDITOR_PASSWORD));
    await page.goto('/admin');
    const menu = page.locator('.wx-admin-menu');
    await menu.getByText('博客', { exact: true }).waitFor();
    for (const title of ['订单', '门店', '商品', '用户管理']) {
      expect(await menu.getByText(title, { exact: true }).count()).toBe(0);
    }
    await page.goto('/admin/OMS/order');
    await page.getByText('抱歉，你没有访问此页面的权限，请联系管理员开通。').waitFor();
    expect(await page.locator('.wx-resource-table').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});
