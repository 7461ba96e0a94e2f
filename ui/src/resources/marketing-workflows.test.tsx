/**
 * The marketing screens' workflows, from the registry in the real app against msw: a 代金券 form
 * refused by its definition's rules before sending, a good's category picker that lists only its
 * store's categories, a batch of exchange codes generated from the toolbar, and a rule's 发放记录.
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
  permissions: ['oms:read', 'oms:write', 'marketing:read', 'marketing:write'],
};

const listAnswer = (results: unknown[], relations = {}) =>
  HttpResponse.json({
    success: true,
    data: { results, page: { total: results.length, page: 1, limit: 20 }, relations },
  });

function signedInAsOperator() {
  window.localStorage.setItem('token', 'token-of-ops');
  server.use(http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: OPERATOR })));
}

/** Every list request's query for `path`. */
function recordLists(path: string, answer: (query: URLSearchParams) => Response) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/api/admin/${path}`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      seen.push(query);
      return answer(query);
    }),
  );
  return seen;
}

async function listArea() {
  return within(
    await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.wx-resource-table');
      if (!el) throw new Error('the list is not there yet');
      return el;
    }),
  );
}

const stamps = { createdAt: '2024-05-01T06:30:00.000Z', updatedAt: '2024-05-01T06:30:00.000Z' };

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await Promise.all([import('../admin/AdminLayout'), import('./ResourcePage'), import('./dialogs')]);
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('marketing workflows', { timeout: 30_000 }, () => {
  it('refuses a 代金券 without 面额 on its field before anything is sent', async () => {
    signedInAsOperator();
    recordLists('couponTemplates', () => listAnswer([]));
    const posts: unknown[] = [];
    server.use(
      http.post(`${API}/api/admin/couponTemplates`, async ({ request }) => {
        posts.push(await request.json());
        return HttpResponse.json({ success: true, data: {} });
      }),
    );
    renderApp('/admin/OMS/coupon');
    await (await listArea()).findByText('暂无优惠券');
    fireEvent.click(screen.getByRole('button', { name: /新\s?建/ }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('券名称'), { target: { value: '满 30 减 5' } });
    // 券类型 is required: choose 代金券.
    fireEvent.mouseDown(within(drawer).getByLabelText('券类型'));
    fireEvent.click(await screen.findByTitle('代金券'));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s?存/ }));
    expect(await within(drawer).findByText('代金券须填写面额（大于 0）')).toBeTruthy();
    expect(posts).toHaveLength(0);
  });

  it('lists only the good’s store’s categories, and none before a store is chosen', async () => {
    signedInAsOperator();
    recordLists('goods', () =>
      listAnswer(
        [
          {
            id: 31,
            storeId: 9,
            categoryId: 90,
            name: '凉拌木耳',
            images: [],
            description: null,
            priceFen: 1800,
            originalPriceFen: null,
            stock: 5,
            specs: [],
            status: 'offSale',
            salesCount: 0,
            sort: 0,
            ...stamps,
          },
        ],
        { storeId: { '9': '九号店' }, categoryId: { '90': '凉菜' } },
      ),
    );
    const categories = recordLists('goodsCategories', (query) =>
      listAnswer(
        query.get('storeId') === '9'
          ? [{ id: 90, storeId: 9, name: '凉菜', sort: 0, status: 'enabled', ...stamps }]
          : [
              { id: 10, storeId: 1, name: '热菜', sort: 0, status: 'enabled', ...stamps },
              { id: 90, storeId: 9, name: '凉菜', sort: 0, status: 'enabled', ...stamps },
            ],
      ),
    );
    renderApp('/admin/OMS/good');
    const row = (await (await listArea()).findByText('凉拌木耳')).closest('tr') as HTMLElement;

    fireEvent.click(screen.getByRole('button', { name: /新\s?建/ }));
    const created = await screen.findByRole('dialog');
    const empty = within(created).getByLabelText('分类').closest('.ant-select') as HTMLElement;
    expect(empty.className).toContain('disabled');
    expect(within(created).getByText('请先选择门店')).toBeTruthy();
    fireEvent.click(within(created).getByRole('button', { name: /取\s?消/ }));

    fireEvent.click(within(row).getByRole('button', { name: /编\s?辑/ }));
    const edit = await waitFor(() => {
      const found = screen.getAllByRole('dialog').find((d) => within(d).queryByText('编辑商品'));
      if (!found) throw new Error('the edit form is not there yet');
      return found;
    });
    fireEvent.mouseDown(within(edit).getByLabelText('分类'));
    await waitFor(() => expect(categories.at(-1)?.get('storeId')).toBe('9'));
    expect(categories.every((q) => q.get('storeId') === '9')).toBe(true);
  });

  it('generates a batch of exchange codes from the toolbar', async () => {
    signedInAsOperator();
    recordLists('exchangeCodes', () => listAnswer([]));
    recordLists('couponTemplates', () =>
      listAnswer([{ id: 4, name: '春节 12 元券', kind: 'cash', status: 'enabled', ...stamps }]),
    );
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/api/admin/exchangeCodes/generate`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          success: true,
          message: '生成兑换码成功',
          data: { batch: '春节海报', templateId: 4, count: 300 },
        });
      }),
    );
    renderApp('/admin/OMS/exchangeCoupon');
    await (await listArea()).findByText('暂无兑换码');
    expect(screen.queryByRole('button', { name: /新\s?建/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '生成兑换码' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    expect(await within(dialog).findByText('请输入批次')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('批次'), { target: { value: '春节海报' } });
    fireEvent.change(within(dialog).getByLabelText('数量'), { target: { value: '300' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('优惠券'));
    fireEvent.click(await screen.findByTitle('春节 12 元券'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    await waitFor(() => expect(bodies).toEqual([{ batch: '春节海报', templateId: 4, count: 300 }]));
  });

  it('opens a rule’s 发放记录: the coupon log filtered to the rule', async () => {
    signedInAsOperator();
    recordLists('couponRules', () =>
      listAnswer(
        [
          {
            id: 3,
            name: '注册送 10 元',
            trigger: 'register',
            thresholdFen: null,
            templateId: 4,
            qty: 1,
            startAt: null,
            endAt: null,
            status: 'enabled',
            ...stamps,
          },
        ],
        { templateId: { '4': '新人 10 元券' } },
      ),
    );
    const log = recordLists('userCoupons', () => listAnswer([]));
    const { router } = renderApp('/admin/OMS/coupon_rule');
    const row = (await (await listArea()).findByText('注册送 10 元')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: '发放记录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/OMS/couponLog'));
    expect(new URLSearchParams(router.state.location.search).get('ruleId')).toBe('3');
    await waitFor(() => expect(log.at(-1)?.get('ruleId')).toBe('3'));
  });
});
