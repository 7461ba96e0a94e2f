/**
 * The API market in Chromium over the built product (issue 17): an admin creates a key in
 * api-market/user-api-key and sees it once (with its warning, gone after 我已保存); buys a plan
 * for a user in api-market/order, the dialog showing the price and the user's balance, paid from
 * the balance; the APIs screen with its charts. Then, against the gateway's contract
 * (`/cloud/api/{code}` with `X-Api-Key`), a call is metered and quota exhaustion answers 429 —
 * that part runs once the gateway is merged: before it the path answers the site's HTML and the
 * test says it is skipped. Screenshots of the three screens.
 */
import type { Page } from 'playwright-core';
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
  type TestPage,
  useToken,
} from './harness';

const BUYER = { username: 'apibuyer_e2e', password: 'ApiBuyer#2026', phone: '13800009917' };
const KEY = /wx_[A-Za-z0-9]{40}/;

/** Picks a row in a RelationSelect / Select of `scope` by typing and clicking its option. */
async function choose(page: Page, scope: ReturnType<Page['locator']>, label: string, text: string) {
  await scope.getByLabel(label).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-item-option', { hasText: text }).first().click();
}

describe.runIf(browserAvailable())('API market (e2e)', () => {
  let session: Session;
  let admin: AdminApi;
  let adminToken: string;
  let view: TestPage;
  let buyerId: number;
  let apiId: number;
  let key = '';

  beforeAll(async () => {
    session = await startSession({ SCHEDULER: 'off' });
    adminToken = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    admin = adminApi(session.server.url, adminToken);
    buyerId = (await admin.create('users', { ...BUYER, roles: [] })).id;
    await admin.create('balanceLedger/adjust', { userId: buyerId, changeFen: 2000, note: 'e2e 充值' });
    // No free quota: the plan's calls are all there is, so the third call meets 429.
    apiId = (
      await admin.create('marketApis', {
        code: 'e2e-palette',
        name: '配色板',
        method: 'GET',
        handler: 'palette',
        freeQuota: 0,
        rateLimitPerMin: 60,
        status: 'enabled',
      })
    ).id;
    await admin.create('apiPlans', {
      apiId,
      name: '体验 2 次',
      calls: 2,
      periodDays: 30,
      priceFen: 500,
      status: 'enabled',
    });
    view = await openPage(session);
    await useToken(view.page, adminToken);
  });

  afterAll(async () => {
    await view?.close();
    await session?.stop();
  });

  it('creates a key in the admin and shows it once', async () => {
    const { page } = view;
    await page.goto('/admin/api-market/user-api-key');
    await page.getByRole('button', { name: /创建 Key/ }).click();
    const dialog = page.getByRole('dialog', { name: '创建 API Key' });
    await choose(page, dialog, '用户', BUYER.username);
    await dialog.getByLabel('名称').fill('e2e 脚本');
    await choose(page, dialog, '可调用的 API', '配色板');
    await dialog.getByRole('button', { name: /^创\s?建$/ }).click();
    const revealed = page.getByTestId('revealed-key');
    await revealed.waitFor();
    key = ((await revealed.textContent()) ?? '').match(KEY)?.[0] ?? '';
    expect(key).toMatch(KEY);
    await page.getByText('完整 Key 只显示这一次').waitFor();
    await screenshot(page, 'api-market-key-created');
    await page.getByRole('button', { name: '我已保存' }).click();
    await revealed.waitFor({ state: 'detached' });
    const row = page.locator('tr', { hasText: 'e2e 脚本' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(key.slice(0, 11));
    expect(await page.content()).not.toContain(key);
    await screenshot(page, 'api-market-keys');
    expect(view.errors).toEqual([]);
  });

  it('buys a plan for the user from their balance', async () => {
    const { page } = view;
    await page.goto('/admin/api-market/order');
    await page.getByRole('button', { name: /购买套餐/ }).click();
    const dialog = page.getByRole('dialog', { name: '购买套餐' });
    await choose(page, dialog, '用户', BUYER.username);
    await choose(page, dialog, '套餐', '体验 2 次');
    await expect.poll(() => dialog.getByTestId('buy-price').textContent()).toBe('¥5.00');
    await expect.poll(() => dialog.getByTestId('buy-balance').textContent()).toBe('¥20.00');
    await screenshot(page, 'api-market-buy');
    await dialog.getByRole('button', { name: '从余额支付' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('tr', { hasText: BUYER.username });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('已支付');
    await screenshot(page, 'api-market-orders');
    const [user] = await admin.list('users', { q: BUYER.username });
    expect(user?.balanceFen).toBe(1500);
    const quotas = await admin.list('apiQuotas', { userId: String(buyerId) });
    expect(quotas.map((q) => q.remaining)).toEqual([2]);
    expect(view.errors).toEqual([]);
  });

  it('shows the APIs with their figures per day', async () => {
    const { page } = view;
    await page.goto('/admin/api-market/api');
    await page.getByText('/cloud/api/e2e-palette').waitFor();
    // The gateway's stats route answers: no call through the gateway yet, so no chart to draw.
    await page.getByText('这段时间还没有调用').first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'api-market-apis', { fullPage: true });
    expect(view.errors).toEqual([]);
  });

  it('meters a gateway call and answers 429 once the quota is spent', async () => {
    const base = session.server.url;
    // A palette of the brand blue; a call the tool refuses (no colour) would cost no quota.
    const call = (k: string) =>
      fetch(`${base}/cloud/api/e2e-palette?color=%231677ff`, { headers: { 'X-Api-Key': k } });
    expect((await fetch(`${base}/cloud/api/e2e-palette?color=%231677ff`)).status).toBe(401);
    expect((await call(`wx_${'x'.repeat(40)}`)).status).toBe(401);
    const first = await call(key);
    const second = await call(key);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    const third = await call(key);
    expect(third.status).toBe(429);
    // Every call with the key metered: two within the quota, one refused for it.
    const [apiKey] = await admin.list('apiKeys', { userId: String(buyerId) });
    await expect
      .poll(async () => (await admin.list('apiCalls', { keyId: String(apiKey?.id) })).length)
      .toBe(3);
    const calls = await admin.list('apiCalls', { keyId: String(apiKey?.id) });
    expect(calls.filter((c) => c.status === 'noQuota')).toHaveLength(1);
    const quotas = await admin.list('apiQuotas', { userId: String(buyerId) });
    expect(quotas.map((q) => q.remaining)).toEqual([0]);
    // The charts read the same figures.
    const { page } = view;
    await page.goto('/admin/api-market/api');
    await page.getByTestId('api-calls-chart').waitFor();
    await screenshot(page, 'api-market-apis-metered', { fullPage: true });
  });
});
