/**
 * The API-market screens in the real app against msw: api-market/api draws an API's last days
 * from the gateway's stats route (contract: { days: [...] } oldest first); api-market/user-api-key
 * creates a key and shows it once with its warning, rotates and shows the new one.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../../test/harness';

const OPERATOR = {
  id: 9,
  username: 'ops',
  nickname: '运营',
  roles: ['operator'],
  permissions: ['apiMarket:read', 'apiMarket:write'],
};
const AT = '2026-11-26T08:00:00.000Z';
const ok = (data: unknown) => HttpResponse.json({ success: true, data });
const list = (results: unknown[], relations: unknown = {}) =>
  ok({ results, relations, page: { total: results.length, page: 1, limit: 20 } });

function signedIn() {
  window.localStorage.setItem('token', 'token-of-ops');
  server.use(http.get(`${API}/api/user/current`, () => ok(OPERATOR)));
}

const day = (d: string, calls: number, errors: number, avg: number | null) => ({
  day: d,
  calls,
  ok: calls - errors,
  errors,
  rateLimited: 0,
  noQuota: 0,
  latencyAvgMs: avg,
  latencyMaxMs: avg === null ? null : avg * 3,
});

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' });
  await Promise.all([import('../AdminLayout'), import('./ApiScreen'), import('./ApiKeyScreen')]);
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('API-market screens', { timeout: 30_000 }, () => {
  it('api-market/api: the first API opens with its 30-day totals and charts from the stats route', async () => {
    signedIn();
    const asked: string[] = [];
    server.use(
      http.get(`${API}/api/admin/marketApis`, () =>
        list([
          {
            id: 3,
            createdAt: AT,
            updatedAt: AT,
            code: 'palette',
            name: '配色板',
            handler: 'palette',
            method: 'GET',
            freeQuota: 100,
            rateLimitPerMin: 60,
            status: 'enabled',
          },
        ]),
      ),
      http.get(`${API}/api/admin/marketApis/:id/stats`, ({ request, params }) => {
        asked.push(`${params.id}?${new URL(request.url).searchParams.toString()}`);
        return ok({
          days: [day('2026-11-24', 0, 0, null), day('2026-11-25', 30, 2, 12), day('2026-11-26', 10, 1, 20)],
        });
      }),
    );
    renderApp('/admin/api-market/api');
    expect(await screen.findByText('/cloud/api/palette')).toBeTruthy();
    const totals = await screen.findByRole('list', { name: '最近 30 天' });
    expect(asked).toEqual(['3?days=30']);
    // 40 calls, 3 errors, latency weighted by calls: (30×12 + 10×20) / 40 = 14.
    expect(within(totals).getByText('40')).toBeTruthy();
    expect(within(totals).getByText('3')).toBeTruthy();
    expect(within(totals).getByText('14')).toBeTruthy();
    expect(await screen.findByTestId('api-calls-chart')).toBeTruthy();
    expect(screen.getByTestId('api-latency-chart')).toBeTruthy();
    // The registry lists follow as tabs.
    expect(screen.getByRole('tab', { name: 'API' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '套餐' })).toBeTruthy();
  });

  it('api-market/api: a server without the stats route says so instead of failing', async () => {
    signedIn();
    server.use(
      http.get(`${API}/api/admin/marketApis`, () =>
        list([
          {
            id: 4,
            createdAt: AT,
            updatedAt: AT,
            code: 'totp',
            name: 'TOTP',
            handler: 'totp',
            rateLimitPerMin: 60,
            status: 'enabled',
          },
        ]),
      ),
      http.get(`${API}/api/admin/marketApis/:id/stats`, () =>
        HttpResponse.json({ success: false, errorCode: 404, message: '接口不存在' }, { status: 404 }),
      ),
    );
    renderApp('/admin/api-market/api');
    expect(await screen.findByText('调用统计暂不可用，请稍后重试')).toBeTruthy();
  });

  it('api-market/user-api-key: 创建 Key shows the key once with a warning; 轮换 shows the new one', async () => {
    signedIn();
    const KEY = `wx_${'A'.repeat(40)}`;
    const NEXT = `wx_${'B'.repeat(40)}`;
    const row = {
      id: 7,
      createdAt: AT,
      updatedAt: AT,
      userId: 2,
      name: '生产环境',
      prefix: KEY.slice(0, 11),
      scopes: [],
      status: 'active',
      lastUsedAt: null,
    };
    const created: unknown[] = [];
    server.use(
      http.get(`${API}/api/admin/apiKeys`, () =>
        list(created.length ? [row] : [], { userId: { 2: 'alice' } }),
      ),
      http.get(`${API}/api/admin/users`, () =>
        list([{ id: 2, createdAt: AT, updatedAt: AT, username: 'alice' }]),
      ),
      http.post(`${API}/api/admin/apiKeys`, async ({ request }) => {
        created.push(await request.json());
        return ok({ ...row, key: KEY });
      }),
      http.post(`${API}/api/admin/apiKeys/7/rotate`, () =>
        ok({ ...row, prefix: NEXT.slice(0, 11), key: NEXT }),
      ),
    );
    renderApp('/admin/api-market/user-api-key');
    fireEvent.click(await screen.findByRole('button', { name: /创建 Key/ }));
    const dialog = await screen.findByRole('dialog', { name: '创建 API Key' });
    const user = within(dialog).getByRole('combobox', { name: '用户' });
    fireEvent.mouseDown(user);
    fireEvent.click(await screen.findByTitle('alice'));
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '生产环境' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^创\s?建$/ }));
    await waitFor(() => expect(created).toEqual([{ userId: 2, name: '生产环境', scopes: [] }]));
    expect((await screen.findByTestId('revealed-key')).textContent).toContain(KEY);
    expect(screen.getByText('完整 Key 只显示这一次')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(screen.queryByTestId('revealed-key')).toBeNull());
    // The list shows the prefix only.
    expect(await screen.findByText(`${KEY.slice(0, 11)}…`)).toBeTruthy();
    expect(screen.queryByText(KEY)).toBeNull();

    // antd spaces some two-character button labels (轮 换).
    const listed = (await screen.findByText(`${KEY.slice(0, 11)}…`)).closest('tr') as HTMLElement;
    fireEvent.click(within(listed).getByRole('button', { name: /^轮\s?换$/ }));
    const confirm = await screen.findByRole('dialog', { name: /轮换「生产环境」/ });
    fireEvent.click(within(confirm).getByRole('button', { name: /^轮\s?换$/ }));
    expect((await screen.findByTestId('revealed-key')).textContent).toContain(NEXT);
    expect(screen.getByText(/旧 Key 已立即失效/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: '调用记录' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'API Key' })).toBeNull();
  });
});
