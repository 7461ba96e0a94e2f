/**
 * 收入统计 and the /admin dashboard over the demo content, in Chromium: the figures the server
 * answers are the figures on screen (cards, charts drawn, table, CSV), the granularity switch and
 * the store filter change them, and neither screen logs a console error. Screenshots to look at:
 * ui/e2e/screenshots/income-*.png, dashboard*.png.
 */
import { formatMoney, type IncomeReport } from '@wanxiang/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  TEST_DEMO_PASSWORD,
  type TestPage,
  useToken,
} from './harness';

async function api<T>(session: Session, token: string, path: string): Promise<T> {
  const res = await fetch(`${session.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data: T };
  return body.data;
}

/**
 * The screen has drawn the answer for `unit` (日/周/月: the table's first view names the answer's
 * granularity, so an earlier answer still on screen does not pass): cards, `charts` charts drawn
 * (canvas), no spinner.
 */
async function incomeShown(page: Page, unit: string, charts: number): Promise<void> {
  await page.locator('.wx-income-view .ant-segmented-item').getByText(`按${unit}`, { exact: true }).waitFor();
  await page.waitForFunction(() => !document.querySelector('.wx-income .ant-spin-spinning'));
  await page.waitForFunction(
    (n) => document.querySelectorAll('.wx-income-charts canvas').length === n,
    charts,
  );
}

/** A full-page screenshot from the top (the sticky header and menu are drawn where the page stood). */
async function fullPage(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, { fullPage: true });
}

const statValue = (page: Page, title: string) =>
  page
    .locator('.wx-income-stat')
    .filter({ has: page.locator('.ant-statistic-title').getByText(title, { exact: true }) })
    .locator('.ant-statistic-content')
    .textContent();

describe.runIf(browserAvailable())('收入统计 and the admin dashboard (e2e)', () => {
  let session: Session;
  let token: string;
  let view: TestPage;
  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    view = await openPage(session, { width: 1440, height: 900 });
    await useToken(view.page, token);
  });
  afterAll(async () => {
    await view?.close();
    await session?.stop();
  });

  it('/admin keeps its heading and shows today’s figures, each a link to its screen', async () => {
    const { page, errors } = view;
    const figures = await api<Record<string, { today: number; yesterday: number } | number>>(
      session,
      token,
      '/api/admin/dashboard',
    );
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'admin', exact: true }).waitFor();
    const orders = figures.ordersToday as { today: number; yesterday: number };
    const revenue = figures.revenueTodayFen as { today: number; yesterday: number };
    await page.getByRole('link', { name: `今日订单：${orders.today.toLocaleString('zh-CN')}` }).waitFor();
    await page.getByRole('link', { name: `今日营业额：${formatMoney(revenue.today)}` }).waitFor();
    const waiting = page.getByRole('link', { name: `待接单：${figures.awaitingAcceptance}` });
    expect(await waiting.getAttribute('href')).toBe('/admin/OMS/order?tab=new');
    await page.getByRole('link', { name: `待派单：${figures.awaitingRunner}` }).waitFor();
    await page.getByRole('link', { name: `待处理退款：${figures.pendingRefunds}` }).waitFor();
    // The demo's monitoring has jobs down and certificates about to expire.
    expect(figures.jobsDown).toBeGreaterThan(0);
    await page.getByRole('link', { name: `故障监控：${figures.jobsDown}` }).waitFor();
    await page.getByRole('link', { name: `证书即将到期：${figures.certificatesExpiring}` }).waitFor();
    await screenshot(page, 'dashboard');

    // 待接单 opens the order board on its 待接单 tab (paid orders).
    await waiting.click();
    await page.waitForURL('**/admin/OMS/order?tab=new');
    await page.locator('.ant-table-row').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('/admin shows an editor no figures of areas it cannot read', async () => {
    const editorPage = await openPage(session, { width: 1280, height: 720 });
    const editorToken = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
    await useToken(editorPage.page, editorToken);
    try {
      await editorPage.page.goto('/admin');
      await editorPage.page.getByText('从左侧菜单选择要打开的页面。').waitFor();
      expect(await editorPage.page.locator('.wx-dashboard-card').count()).toBe(0);
      await screenshot(editorPage.page, 'dashboard-editor');
      expect(editorPage.errors).toEqual([]);
    } finally {
      await editorPage.close();
    }
  });

  it('OMS/income shows the last 30 days as the server counts them: cards, charts, table', async () => {
    const { page, errors } = view;
    await page.goto('/admin/OMS/income');
    await incomeShown(page, '日', 3);
    // The screen's default range is the server's (core's defaultIncomeRange): the last 30 days.
    const report = await api<IncomeReport>(session, token, '/api/admin/income');
    expect(report.series).toHaveLength(30);
    expect(report.totals.orders).toBeGreaterThan(0);
    expect(await statValue(page, '营业额')).toBe(formatMoney(report.totals.revenueFen));
    expect(await statValue(page, '订单数')).toBe(report.totals.orders.toLocaleString('zh-CN'));
    expect(await statValue(page, '退款')).toBe(formatMoney(report.totals.refundsFen));
    expect(await statValue(page, '净收入')).toBe(formatMoney(report.totals.netFen));
    expect(await statValue(page, '客单价')).toBe(formatMoney(report.totals.avgTicketFen));
    // One table row per day, empty days included, and the 合计 line.
    expect(await page.locator('.wx-income-table .ant-table-row').count()).toBe(30);
    const total = page.locator('.wx-income-total');
    expect(await total.textContent()).toContain(formatMoney(report.totals.revenueFen));
    const last = report.series.at(-1) as IncomeReport['series'][number];
    const lastRow = page.locator('.wx-income-table .ant-table-row').last();
    expect(await lastRow.textContent()).toContain(last.period);
    await fullPage(page, 'income-day');
    expect(errors).toEqual([]);
  });

  it('switches to weeks and months, filters by a store and lists stores', async () => {
    const { page, errors } = view;
    await page.locator('.wx-income-toolbar .ant-segmented-item', { hasText: '周' }).click();
    await page.waitForURL(/granularity=week/);
    await incomeShown(page, '周', 3);
    expect(await page.locator('.wx-income-table .ant-table-row').count()).toBe(12);
    await fullPage(page, 'income-week');

    await page.locator('.wx-income-toolbar .ant-segmented-item', { hasText: '月' }).click();
    await page.waitForURL(/granularity=month/);
    await incomeShown(page, '月', 3);
    const months = await api<IncomeReport>(session, token, `/api/admin/income${new URL(page.url()).search}`);
    expect(await page.locator('.wx-income-table .ant-table-row').count()).toBe(months.series.length);
    await page.locator('.wx-income-view .ant-segmented-item', { hasText: '按门店' }).click();
    const storeRows = page.locator('.wx-income-table .ant-table-row');
    await storeRows.first().waitFor();
    expect(await storeRows.count()).toBe(months.byStore.length);
    expect(await storeRows.first().textContent()).toContain(months.byStore[0]?.storeName ?? '?');
    await fullPage(page, 'income-month-stores');

    // One store: its figures only, and no ranking of stores.
    const store = months.byStore[0] as IncomeReport['byStore'][number];
    await page.getByRole('combobox', { name: '门店' }).click();
    await page.locator('.ant-select-item-option', { hasText: store.storeName }).first().click();
    await page.waitForURL(new RegExp(`storeId=${store.storeId}`));
    // The ranking of stores goes once the store's own answer is drawn.
    await incomeShown(page, '月', 2);
    expect(await statValue(page, '营业额')).toBe(formatMoney(store.revenueFen));
    expect(await page.locator('.wx-income-charts canvas').count()).toBe(2);
    await fullPage(page, 'income-one-store');
    expect(errors).toEqual([]);
  });

  it('exports the table as the CSV the server writes', async () => {
    const { page, errors } = view;
    await page.goto('/admin/OMS/income?granularity=week');
    await incomeShown(page, '周', 3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /导\s?出/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^收入统计_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const path = await download.path();
    const text = (await import('node:fs')).readFileSync(path, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('\uFEFF期间,营业额,订单数,退款,净收入,客单价');
    expect(lines.at(-2)).toMatch(/^合计,\d+\.\d{2},\d+,/);
    expect(lines).toHaveLength(12 + 3);
    await page
      .locator('.ant-message')
      .getByText(/已导出/)
      .waitFor();
    expect(errors).toEqual([]);
  });
});
