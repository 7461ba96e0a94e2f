/**
 * The registry-driven list screen in the real app (routes, guard, layout) against msw: the view
 * lives in the URL, relations show by name, core's rules and the server's 422 land on their
 * fields, an edit sends only its changes with If-Match, a failing list offers a retry.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../test/harness';

const OPERATOR = {
  id: 7,
  username: 'ops',
  nickname: '运营小王',
  roles: ['operator'],
  permissions: ['oms:read', 'oms:write'],
};

const store = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  logo: null,
  phone: '010-6500 1234',
  address: `北京市朝阳区建国路 ${id} 号`,
  lng: null,
  lat: null,
  businessHours: '09:00-21:00',
  status: 'open',
  deliveryRadiusM: 3000,
  minOrderFen: 2000,
  deliveryFeeFen: 500,
  packingFeeFen: 100,
  autoAccept: false,
  createdAt: '2024-05-01T06:30:00.000Z',
  updatedAt: '2024-05-02T08:00:00.000Z',
  ...extra,
});

const listAnswer = (results: unknown[], total = results.length, relations = {}) =>
  HttpResponse.json({ success: true, data: { results, page: { total, page: 1, limit: 20 }, relations } });

/** Every list request's query, as the server saw it. */
function recordLists(path: string, answer: () => Response | Promise<Response>) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/api/admin/${path}`, ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return answer();
    }),
  );
  return seen;
}

function signedInAsOperator() {
  window.localStorage.setItem('token', 'token-of-ops');
  server.use(http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: OPERATOR })));
}

const table = () => document.querySelector('.wx-resource-table') as HTMLElement;

/** The list area once the lazy screen is there. */
async function listArea() {
  return within(
    await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.wx-resource-table');
      if (!el) throw new Error('the list is not there yet');
      return el;
    }),
  );
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Transform the lazy chunks once, before any test's clock runs.
  await Promise.all([
    import('../admin/AdminLayout'),
    import('./ResourcePage'),
    import('./dialogs'),
    import('./NumberRangeFilter'),
    import('./DateRangeFilter'),
  ]);
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// Each test renders the whole back office in jsdom: slower than the default 5 s allows.
describe('ResourcePage', { timeout: 30_000 }, () => {
  it('reads page, size, sort, keyword and filters from the URL, drops what the registry refuses, and writes changes back', async () => {
    signedInAsOperator();
    const seen = recordLists('stores', () =>
      listAnswer(
        Array.from({ length: 3 }, (_, i) => store(i + 1, `门店${i + 1}`)),
        120,
      ),
    );
    const { router } = renderApp('/admin/OMS/store?status=open&sort=-name&page=2&limit=50&q=朝阳&bogus=1');
    await (await listArea()).findByText('门店1');

    const first = seen[0] as URLSearchParams;
    expect(Object.fromEntries(first)).toEqual({
      page: '2',
      limit: '50',
      sort: '-name',
      q: '朝阳',
      status: 'open',
    });
    // The controls show the view they came from.
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('朝阳');
    expect(within(document.querySelector('.wx-filter-bar') as HTMLElement).getByText('营业中')).toBeTruthy();
    expect(screen.getByText('共 120 条')).toBeTruthy();

    // Sorting by a column: back to page 1, the new order in the URL and in the request.
    fireEvent.click(within(table()).getAllByText('门店名称')[0]?.closest('th') as HTMLElement);
    await waitFor(() => expect(seen).toHaveLength(2));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('sort')).toBe('name');
    expect(params.get('page')).toBeNull();
    expect(params.get('status')).toBe('open');
    expect(seen[1]?.get('sort')).toBe('name');
    expect(seen[1]?.get('page')).toBe('1');

    // A new keyword from the filter bar.
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '望京' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s?询/ }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q')).toBe('望京'));
    await waitFor(() => expect(seen.at(-1)?.get('q')).toBe('望京'));
  });

  it('shows related rows by the names the list answer carries', async () => {
    signedInAsOperator();
    recordLists('goods', () =>
      listAnswer(
        [
          {
            id: 31,
            storeId: 3,
            categoryId: 8,
            name: '宫保鸡丁',
            images: [],
            description: null,
            priceFen: 3280,
            originalPriceFen: null,
            stock: 50,
            specs: [],
            status: 'onSale',
            salesCount: 12,
            sort: 0,
            createdAt: '2024-05-01T06:30:00.000Z',
            updatedAt: '2024-05-01T06:30:00.000Z',
          },
        ],
        1,
        { storeId: { '3': '朝阳门店' }, categoryId: { '8': '热菜' } },
      ),
    );
    renderApp('/admin/OMS/good');
    const row = (await (await listArea()).findByText('宫保鸡丁')).closest('tr') as HTMLElement;
    expect(within(row).getByText('朝阳门店')).toBeTruthy();
    expect(within(row).getByText('热菜')).toBeTruthy();
    expect(within(row).getByText('¥32.80')).toBeTruthy();
    expect(within(row).getByText('在售')).toBeTruthy();
    expect(within(row).getByText('2024-05-01 14:30')).toBeTruthy();
  });

  it('checks with core’s rules before sending, then puts the server’s 422 messages on their fields', async () => {
    signedInAsOperator();
    recordLists('stores', () => listAnswer([]));
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/api/admin/stores`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          {
            success: false,
            errorCode: 422,
            message: '输入有误，请检查后重试',
            data: { fields: { name: '门店名称已存在' } },
          },
          { status: 422 },
        );
      }),
    );
    renderApp('/admin/OMS/store');
    await (await listArea()).findByText('暂无门店');
    fireEvent.click(screen.getByRole('button', { name: /新\s?建/ }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: /保\s?存/ });

    // Nothing typed: core's required messages, and no request.
    fireEvent.click(save);
    expect(await within(dialog).findByText('请输入门店名称')).toBeTruthy();
    expect(within(dialog).getByText('请输入电话')).toBeTruthy();
    expect(bodies).toHaveLength(0);

    // A phone core refuses.
    fireEvent.change(within(dialog).getByLabelText('电话'), { target: { value: 'abc' } });
    expect(await within(dialog).findByText('电话不是一个有效的电话号码')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('门店名称'), { target: { value: '朝阳门店' } });
    fireEvent.change(within(dialog).getByLabelText('电话'), { target: { value: '010-6500 1234' } });
    fireEvent.change(within(dialog).getByLabelText('地址'), { target: { value: '北京市朝阳区建国路 1 号' } });
    fireEvent.change(within(dialog).getByLabelText('起送价'), { target: { value: '12.5' } });
    fireEvent.click(save);

    await within(dialog).findByText('门店名称已存在');
    const nameItem = within(dialog).getByLabelText('门店名称').closest('.ant-form-item') as HTMLElement;
    expect(within(nameItem).getByText('门店名称已存在')).toBeTruthy();
    expect(bodies[0]).toMatchObject({
      name: '朝阳门店',
      phone: '010-6500 1234',
      address: '北京市朝阳区建国路 1 号',
      // Yuan on screen, fen on the wire.
      minOrderFen: 1250,
    });
  });

  it('an edit sends only what changed, with the row’s updatedAt as If-Match; a 409 offers to reload', async () => {
    signedInAsOperator();
    recordLists('stores', () => listAnswer([store(5, '望京门店')]));
    const patches: { body: unknown; ifMatch: string | null }[] = [];
    server.use(
      http.patch(`${API}/api/admin/stores/5`, async ({ request }) => {
        patches.push({ body: await request.json(), ifMatch: request.headers.get('if-match') });
        return HttpResponse.json(
          { success: false, errorCode: 409, message: '该记录已被他人修改' },
          { status: 409 },
        );
      }),
    );
    renderApp('/admin/OMS/store');
    const row = (await (await listArea()).findByText('望京门店')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /编\s?辑/ }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('起送价') as HTMLInputElement).value).toBe('20.00');
    fireEvent.change(within(dialog).getByLabelText('电话'), { target: { value: '010-8888 0000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ }));

    await screen.findByText('该记录已被他人修改');
    expect(patches).toEqual([{ body: { phone: '010-8888 0000' }, ifMatch: '2024-05-02T08:00:00.000Z' }]);
    expect(screen.getByRole('button', { name: '重新加载' })).toBeTruthy();
  });

  it('a failing list shows an error state with a retry, never a blank screen', async () => {
    signedInAsOperator();
    let fail = true;
    recordLists('stores', () =>
      fail
        ? HttpResponse.json({ success: false, errorCode: 500, message: '数据库连接失败' }, { status: 500 })
        : listAnswer([store(1, '国贸门店')]),
    );
    renderApp('/admin/OMS/store');
    await (await listArea()).findByText('列表加载失败');
    expect(within(table()).getByText('数据库连接失败')).toBeTruthy();
    // The catalogue's 系统错误 toast (core's HTTP client), once.
    expect(await screen.findAllByText('系统错误 数据库连接失败')).toHaveLength(1);
    fail = false;
    fireEvent.click(within(table()).getByRole('button', { name: /重\s?试/ }));
    await (await listArea()).findByText('国贸门店');
    expect(within(table()).queryByText('列表加载失败')).toBeNull();
  });

  it('keeps column choices and the page size in the user’s preferences on the server', async () => {
    signedInAsOperator();
    const stored: Record<string, unknown> = {
      'table:stores': { columns: ['id', 'name', 'status'], pageSize: 50 },
    };
    const puts: { key: string; value: unknown }[] = [];
    server.use(
      http.get(`${API}/api/me/preferences`, () => HttpResponse.json({ success: true, data: stored })),
      http.put(`${API}/api/me/preferences/:key`, async ({ params, request }) => {
        const { value } = (await request.json()) as { value: unknown };
        puts.push({ key: decodeURIComponent(String(params.key)), value });
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    const seen = recordLists('stores', () => listAnswer([store(1, '国贸门店')]));
    renderApp('/admin/OMS/store');
    await (await listArea()).findByText('国贸门店');
    // The stored page size, asked for from the first request on (no second fetch).
    expect(seen.map((q) => q.get('limit'))).toEqual(['50']);
    const headers = [...table().querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toContain('门店名称');
    expect(headers).not.toContain('电话');

    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: '电话' }));
    await waitFor(() =>
      expect(puts).toContainEqual({
        key: 'table:stores',
        value: { columns: ['id', 'name', 'status', 'phone'], pageSize: 50 },
      }),
    );
    expect([...table().querySelectorAll('thead th')].map((th) => th.textContent)).toContain('电话');
  });
});
