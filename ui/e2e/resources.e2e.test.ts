/**
 * The registry-driven list screens in Chromium against the built product: create → edit → delete
 * through the UI for resources of five areas, validation on the field (core's rules in the browser
 * and the server's answer), the URL restoring the view after a reload, CSV export with the token.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './admin-api';
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

/** The list of the screen once its rows are in (no spinner). */
async function listReady(page: Page): Promise<Locator> {
  const list = page.locator('.wx-resource-table');
  await list.locator('.ant-table').waitFor();
  await page.waitForFunction(() => !document.querySelector('.wx-resource-table .ant-spin-spinning'));
  return list;
}

/** The next answer of a resource's list whose query passes `check`. */
function listAnswer(page: Page, resource: string, check: (query: URLSearchParams) => boolean) {
  return page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === `/api/admin/${resource}` && check(url.searchParams);
  });
}

const row = (page: Page, text: string) => page.locator('.wx-resource-table tbody tr', { hasText: text });

/** The open create/edit form (a Modal or a Drawer). */
const form = (page: Page) =>
  page.locator('.wx-resource-modal, .wx-resource-drawer').filter({ visible: true });

async function fill(page: Page, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) {
    await form(page).getByLabel(label, { exact: true }).fill(value);
  }
}

async function save(page: Page): Promise<void> {
  await form(page)
    .getByRole('button', { name: /^保\s?存$/ })
    .click();
}

interface RoundTrip {
  area: string;
  route: string;
  create: Record<string, string>;
  /** Text that identifies the new row in the list. */
  key: string;
  edit: Record<string, string>;
  /** Text the edited row shows. */
  edited: string;
}

const ROUND_TRIPS: RoundTrip[] = [
  {
    area: 'oms',
    route: 'OMS/store',
    create: { 门店名称: '王府井体验店', 电话: '010-6512 8888', 地址: '北京市东城区王府井大街 138 号' },
    key: '王府井体验店',
    edit: { 地址: '北京市东城区王府井大街 255 号' },
    edited: '北京市东城区王府井大街 255 号',
  },
  {
    area: 'system',
    route: 'member/level',
    create: { 等级名称: '钻石会员', 所需积分: '20000' },
    key: '钻石会员',
    edit: { 等级名称: '黑钻会员' },
    edited: '黑钻会员',
  },
  {
    area: 'bbs',
    route: 'bbs/tag',
    create: { 标签名称: '美食探店' },
    key: '美食探店',
    edit: { 标签名称: '探店打卡' },
    edited: '探店打卡',
  },
  {
    area: 'law',
    route: 'law/doc/category',
    create: { 分类名称: '劳动合同' },
    key: '劳动合同',
    edit: { 分类名称: '劳动合同范本' },
    edited: '劳动合同范本',
  },
  {
    area: 'cloud',
    route: 'cloud/cdn/domain',
    create: { 加速域名: 'static.wanxiang-e2e.cn', 源站: 'https://origin.wanxiang-e2e.cn' },
    key: 'static.wanxiang-e2e.cn',
    edit: { 源站: 'https://origin2.wanxiang-e2e.cn' },
    edited: 'https://origin2.wanxiang-e2e.cn',
  },
];

describe.runIf(browserAvailable())('resource screens (e2e)', () => {
  let session: Session;
  let token: string;
  let api: AdminApi;
  beforeAll(async () => {
    session = await startSession();
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    api = adminApi(session.server.url, token);
  });
  afterAll(async () => {
    await session?.stop();
  });

  for (const trip of ROUND_TRIPS) {
    it(`creates, edits and deletes through the UI: /admin/${trip.route} (${trip.area})`, async () => {
      // Wide enough for every default column: narrower, a list leaves out the optional ones that
      // do not fit (the stores' 地址 among them), and the edited value is looked for in the row.
      const { page, errors, close } = await openPage(session, { width: 1920, height: 900 });
      await useToken(page, token);
      await page.goto(`/admin/${trip.route}`);
      await listReady(page);

      await page.getByRole('button', { name: /新\s?建$/ }).click();
      await form(page).waitFor();
      await fill(page, trip.create);
      await save(page);
      await form(page).waitFor({ state: 'detached' });
      await row(page, trip.key).waitFor();

      await row(page, trip.key)
        .getByRole('button', { name: /^编\s?辑$/ })
        .click();
      await form(page).waitFor();
      await fill(page, trip.edit);
      await save(page);
      await form(page).waitFor({ state: 'detached' });
      await row(page, trip.edited).waitFor();

      const edited = row(page, trip.edited);
      const more = edited.getByRole('button', { name: /更多/ });
      if (await edited.getByRole('button', { name: /^删\s?除$/ }).count()) {
        await edited.getByRole('button', { name: /^删\s?除$/ }).click();
      } else {
        await more.click();
        await page.getByRole('menuitem', { name: '删除' }).click();
      }
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.getByText('确定删除').waitFor();
      await confirm.getByRole('button', { name: /^删\s?除$/ }).click();
      await row(page, trip.edited).waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('shows core’s rules on the field before sending, and the server’s duplicate answer on its field', async () => {
    await api.create('stores', {
      name: '国贸旗舰店',
      phone: '010-6500 1000',
      address: '北京市朝阳区建国门外大街 1 号',
    });
    const { page, errors, close } = await openPage(session, { width: 1440, height: 900 });
    await useToken(page, token);
    await page.goto('/admin/OMS/store');
    await listReady(page);
    await page.getByRole('button', { name: /新\s?建$/ }).click();
    await form(page).waitFor();

    // Nothing typed: core's zod rules, in the browser, before any request.
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/stores')) posts++;
    });
    await save(page);
    const nameItem = form(page)
      .locator('.ant-form-item')
      .filter({ has: page.getByLabel('门店名称', { exact: true }) });
    await nameItem.getByText('请输入门店名称').waitFor();
    await fill(page, { 电话: '北京' });
    const phoneItem = form(page)
      .locator('.ant-form-item')
      .filter({ has: page.getByLabel('电话', { exact: true }) });
    await phoneItem.getByText('电话不是一个有效的电话号码').waitFor();
    expect(posts).toBe(0);
    await screenshot(page, 'store-create-validation');

    // A name that exists: the server's 409 names the field, and the message lands on it.
    await fill(page, { 门店名称: '国贸旗舰店', 电话: '010-6500 2000', 地址: '北京市朝阳区光华路 9 号' });
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/stores'),
    );
    await save(page);
    expect((await answer).status()).toBe(409);
    await nameItem.getByText('门店名称已存在').waitFor();
    await screenshot(page, 'store-create-duplicate');
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
    await close();
  });

  it('keeps filters, sort, page and page size in the URL: a reload shows the same view', async () => {
    const { id: storeId } = await api.create('stores', {
      name: '西单大悦城店',
      phone: '010-6651 7788',
      address: '北京市西城区西单北大街 131 号',
    });
    for (let i = 1; i <= 25; i++) {
      await api.create('goodsCategories', { storeId, name: `分类${String(i).padStart(2, '0')}`, sort: i });
    }
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin/OMS/category');
    await listReady(page);

    await page.getByLabel('关键字').fill('分类');
    let answer = listAnswer(page, 'goodsCategories', (q) => q.get('q') === '分类');
    await page.getByRole('button', { name: /^查\s?询$/ }).click();
    await answer;
    await page.waitForURL((u) => u.searchParams.get('q') === '分类');
    // 排序 descending (the first click on a sortable header), then page 2.
    answer = listAnswer(page, 'goodsCategories', (q) => q.get('sort') === '-sort');
    await page.locator('.wx-resource-table th', { hasText: '排序' }).click();
    await answer;
    await page.waitForURL((u) => u.searchParams.get('sort') === '-sort');
    answer = listAnswer(page, 'goodsCategories', (q) => q.get('page') === '2');
    await page.locator('.ant-pagination-item-2').click();
    await answer;
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    await row(page, '分类05').waitFor();
    expect(await page.locator('.wx-resource-table tbody tr.ant-table-row').count()).toBe(5);

    await page.reload();
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: '分类', sort: '-sort', page: '2' });
    await listReady(page);
    await row(page, '分类01').waitFor();
    expect(await page.locator('.wx-resource-table tbody tr.ant-table-row').count()).toBe(5);
    expect(await page.locator('.ant-pagination-item-active').textContent()).toBe('2');
    expect(await page.getByLabel('关键字').inputValue()).toBe('分类');
    expect(
      await page.locator('.wx-resource-table th[aria-sort]', { hasText: '排序' }).getAttribute('aria-sort'),
    ).toBe('descending');

    // The page size: 10 a page, back to the first page.
    answer = listAnswer(page, 'goodsCategories', (q) => q.get('limit') === '10');
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.getByTitle('10 条/页').click();
    await answer;
    await page.waitForURL((u) => u.searchParams.get('limit') === '10' && !u.searchParams.has('page'));
    await row(page, '分类25').waitFor();
    expect(await page.locator('.wx-resource-table tbody tr.ant-table-row').count()).toBe(10);
    expect(errors).toEqual([]);
    await close();
  });

  it('exports the current filter as CSV, with the sign-in token', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin/OMS/store?q=国贸');
    await listReady(page);
    const download = page.waitForEvent('download');
    const request = page.waitForRequest((r) => r.url().includes('/api/admin/stores/export'));
    await page.getByRole('button', { name: /导出 CSV/ }).click();
    const sent = await request;
    expect(new URL(sent.url()).searchParams.get('q')).toBe('国贸');
    expect(new URL(sent.url()).searchParams.get('format')).toBe('csv');
    expect(sent.headers().authorization).toBe(`Bearer ${token}`);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = await (await file.createReadStream()).toArray();
    const csv = Buffer.concat(text as Buffer[]).toString('utf8');
    expect(csv).toContain('国贸旗舰店');
    expect(csv).not.toContain('王府井');
    expect(errors).toEqual([]);
    await close();
  });
});
