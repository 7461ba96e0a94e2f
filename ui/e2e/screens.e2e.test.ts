/**
 * Screenshots of the registry-driven screens over the server's demo content, to be looked at:
 * lists of several areas, a create modal with its validation errors, a long form in a drawer, a
 * detail drawer. Every screen opens without a console error. (What the demo rows say is the
 * seeder's to test; here they are only something to look at.)
 */
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
  type TestPage,
  useToken,
} from './harness';

async function listShown(page: Page): Promise<void> {
  await page.locator('.wx-resource-table .ant-table').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.wx-resource-table .ant-spin-spinning'));
}

describe.runIf(browserAvailable())('resource screens, to look at (e2e)', () => {
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

  const SCREENS: [string, string][] = [
    ['runner/order', 'screen-deliveries'],
    ['OMS/good', 'screen-goods'],
    ['OMS/store', 'screen-stores'],
    ['sys-user', 'screen-users'],
    ['blog/article', 'screen-articles'],
    ['law/doc', 'screen-docs'],
    ['law/lawyer', 'screen-lawyers'],
    // monitor/job, monitor/ssl and wechat/merchant are boards of their own (monitor.e2e.test.ts,
    // merchant-review.e2e.test.ts look at them).
    ['monitor/ssl/deploy', 'screen-ssl-deployments'],
    ['cloud/cdn/domain', 'screen-cdn-domains'],
  ];

  for (const [route, name] of SCREENS) {
    it(`/admin/${route}`, async () => {
      const { page, errors } = view;
      await page.goto(`/admin/${route}`);
      await listShown(page);
      await screenshot(page, name);
      expect(errors).toEqual([]);
    });
  }

  it('a create modal with its validation errors', async () => {
    const { page, errors } = view;
    await page.goto('/admin/member/level');
    await listShown(page);
    await page.getByRole('button', { name: /新\s?建$/ }).click();
    const modal = page.locator('.wx-resource-modal');
    await modal.getByRole('button', { name: /^保\s?存$/ }).click();
    await modal.getByText('请输入等级名称').waitFor();
    await modal.getByText('请输入所需积分').waitFor();
    await screenshot(page, 'create-modal-validation');
    await modal.getByRole('button', { name: /^取\s?消$/ }).click();
    expect(errors).toEqual([]);
  });

  it('a long form in a drawer, and a row’s details', async () => {
    const { page, errors } = view;
    await page.goto('/admin/OMS/good');
    await listShown(page);
    const row = page.locator('.wx-resource-table tbody tr.ant-table-row').first();
    await row.getByRole('button', { name: /^编\s?辑$/ }).click();
    const drawer = page.locator('.wx-resource-drawer');
    await drawer.getByLabel('商品名称', { exact: true }).waitFor();
    expect(await drawer.getByLabel('售价', { exact: true }).inputValue()).toMatch(/^\d+\.\d{2}$/);
    await screenshot(page, 'drawer-form');
    await drawer.getByRole('button', { name: /^取\s?消$/ }).click();
    await drawer.waitFor({ state: 'hidden' });

    // wechat/merchant is the review board (merchant-review.e2e.test.ts); its registry list is a tab.
    await page.goto('/admin/wechat/merchant');
    await page.getByRole('tab', { name: '商户进件', exact: true }).click();
    await listShown(page);
    await page
      .locator('.wx-resource-table tbody tr.ant-table-row')
      .first()
      .getByRole('button', { name: /^详\s?情$/ })
      .click();
    await page.locator('.wx-record').getByText('主体名称').waitFor();
    await screenshot(page, 'detail-drawer');
    expect(errors).toEqual([]);
  });
});
