/**
 * The marketing screens' workflows, from the registry in the real app against msw: a 代金券 form
 * refused by its definition's rules before sending, a good's category picker that lists only its
 * store's categories, a batch of exchange codes generated from the toolbar, a rule's 发放记录,
 * coupons issued to chosen users from a template's 发放, exchange codes voided one by one (作废) and
 * by batch (作废整批), and a user's balance adjusted with a reason (调整余额: the amount in fen, no
 * request without the reason).
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
  permissions: [
    'oms:read',
    'oms:write',
    'marketing:read',
    'marketing:write',
    'finance:read',
    'finance:write',
  ],
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

/** The users a relation picker lists (users' display field is the username). */
const USERS = [
  { id: 11, username: 'zhangsan', nickname: '张三', ...stamps },
  { id: 12, username: 'lisi', nickname: '李四', ...stamps },
];

/** Every POST under /api/admin/{resource}/…: its path after the resource, and its body. */
function recordPosts(resource: string, answer: (path: string, body: unknown) => Response) {
  const posts: { path: string; body: unknown }[] = [];
  server.use(
    http.post(`${API}/api/admin/${resource}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(`/api/admin/${resource}/`.length);
      const body = await request.json();
      posts.push({ path, body });
      return answer(path, body);
    }),
  );
  return posts;
}

/** The open dialog whose text has `text` (antd keeps closed ones in the document). */
const dialogWith = (text: string) =>
  waitFor(() => {
    const found = screen.getAllByRole('dialog').find((d) => d.textContent?.includes(text));
    if (!found) throw new Error(`no dialog with ${text}`);
    return found;
  });

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

  it('issues a coupon template to chosen users (发放) and says how it went', async () => {
    signedInAsOperator();
    recordLists('couponTemplates', () =>
      listAnswer([
        {
          id: 4,
          name: '春节 12 元券',
          kind: 'cash',
          valueFen: 1200,
          thresholdFen: 0,
          validity: 'relative',
          validDays: 7,
          totalQty: 0,
          issuedQty: 0,
          perUserLimit: 1,
          storeIds: [],
          status: 'enabled',
          ...stamps,
        },
      ]),
    );
    recordLists('users', () => listAnswer(USERS));
    const posts = recordPosts('couponTemplates', () =>
      HttpResponse.json({ success: true, message: '已向 2 位用户发放', data: { issued: 2 } }),
    );
    renderApp('/admin/OMS/coupon');
    const row = (await (await listArea()).findByText('春节 12 元券')).closest('tr') as HTMLElement;
    // Past four commands a row's actions go under 更多.
    fireEvent.mouseEnter(within(row).getByRole('button', { name: /更多/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '发放' }));
    const dialog = await dialogWith('发放：春节 12 元券');
    // Nobody chosen: refused on the field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    expect(await within(dialog).findByText('请输入发放给')).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.mouseDown(within(dialog).getByLabelText('发放给'));
    fireEvent.click(await screen.findByTitle('zhangsan'));
    fireEvent.click(await screen.findByTitle('lisi'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    await waitFor(() => expect(posts).toEqual([{ path: '4/issue', body: { userIds: [11, 12] } }]));
    expect(await screen.findByText('已向 2 位用户发放')).toBeTruthy();
  });

  it('voids an unused exchange code (作废) after confirming, and offers it on no used one', async () => {
    signedInAsOperator();
    let voided = false;
    const code = (id: number, text: string, status: string) => ({
      id,
      batch: '春节海报',
      code: text,
      templateId: 4,
      status,
      redeemedBy: null,
      redeemedAt: null,
      ...stamps,
    });
    const lists = recordLists('exchangeCodes', () =>
      listAnswer([code(41, 'WX8K2M7Q', voided ? 'void' : 'unused'), code(42, 'WX9P3QZT', 'used')], {
        templateId: { '4': '春节 12 元券' },
      }),
    );
    const posts = recordPosts('exchangeCodes', () => {
      voided = true;
      return HttpResponse.json({
        success: true,
        message: '兑换码已作废',
        data: code(41, 'WX8K2M7Q', 'void'),
      });
    });
    renderApp('/admin/OMS/exchangeCoupon');
    const list = await listArea();
    const unused = (await list.findByText('WX8K2M7Q')).closest('tr') as HTMLElement;
    const used = list.getByText('WX9P3QZT').closest('tr') as HTMLElement;
    expect(within(used).queryByRole('button', { name: /作\s?废/ })).toBeNull();
    fireEvent.click(within(unused).getByRole('button', { name: /作\s?废/ }));
    const confirm = await dialogWith('作废后该兑换码不能再兑换，确定作废？');
    expect(posts).toEqual([]);
    const fetched = lists.length;
    fireEvent.click(within(confirm).getByRole('button', { name: /作\s?废/ }));
    await waitFor(() => expect(posts).toEqual([{ path: '41/void', body: {} }]));
    expect(await screen.findByText('兑换码已作废')).toBeTruthy();
    // The list is asked again and shows the code voided.
    await waitFor(() => expect(lists.length).toBeGreaterThan(fetched));
    const row = (await list.findByText('WX8K2M7Q')).closest('tr') as HTMLElement;
    expect(await within(row).findByText('已作废')).toBeTruthy();
  });

  it('voids a whole batch of exchange codes (作废整批): the batch is required, then sent', async () => {
    signedInAsOperator();
    const lists = recordLists('exchangeCodes', () => listAnswer([]));
    const posts = recordPosts('exchangeCodes', () =>
      HttpResponse.json({ success: true, message: '已作废 120 个兑换码', data: { voided: 120 } }),
    );
    renderApp('/admin/OMS/exchangeCoupon');
    await (await listArea()).findByText('暂无兑换码');
    fireEvent.click(screen.getByRole('button', { name: '作废整批' }));
    const dialog = await dialogWith('该批次所有未兑换的兑换码将作废，已兑换的不受影响。');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    expect(await within(dialog).findByText('请输入批次')).toBeTruthy();
    expect(posts).toEqual([]);
    const fetched = lists.length;
    fireEvent.change(within(dialog).getByLabelText('批次'), { target: { value: '春节海报' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    await waitFor(() => expect(posts).toEqual([{ path: 'voidBatch', body: { batch: '春节海报' } }]));
    expect(await screen.findByText('已作废 120 个兑换码')).toBeTruthy();
    await waitFor(() => expect(lists.length).toBeGreaterThan(fetched));
  });

  it('adjusts a user’s balance (调整余额) in fen with a reason, and refuses it without one', async () => {
    signedInAsOperator();
    recordLists('balanceLedger', () => listAnswer([]));
    recordLists('users', () => listAnswer(USERS));
    const posts = recordPosts('balanceLedger', () =>
      HttpResponse.json({ success: true, message: '余额已调整', data: { balanceAfterFen: 5234 } }),
    );
    renderApp('/admin/OMS/balance');
    await listArea();
    fireEvent.click(await screen.findByRole('button', { name: '调整余额' }));
    const dialog = await dialogWith('调整余额（余额流水）');
    fireEvent.mouseDown(within(dialog).getByLabelText('用户'));
    fireEvent.click(await screen.findByTitle('zhangsan'));
    fireEvent.change(within(dialog).getByLabelText('调整金额'), { target: { value: '12.34' } });
    // No reason: refused on its field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    expect(await within(dialog).findByText('请输入原因')).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('原因'), { target: { value: '配送超时补偿' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    // ¥12.34 entered, 1234 fen sent.
    await waitFor(() =>
      expect(posts).toEqual([
        { path: 'adjust', body: { userId: 11, changeFen: 1234, note: '配送超时补偿' } },
      ]),
    );
    expect(await screen.findByText('余额已调整')).toBeTruthy();
  });
});
