/**
 * The order board in the real app (routes, guard, layout) against msw: tab counts from the list
 * totals, lines in words, the drawer's buttons exactly core's moves, the reason and refund dialogs
 * sending what the API takes (the refund amount shown is core's planRefund), 打印小票 only with a
 * `print` action, live news over /ws (a notification, one debounced refresh for a burst), the
 * counter's price preview asked once for a burst of cart changes, and the new-order chime: played
 * once for an order just paid, never for news that brings no new order.
 */

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getResource, movesFor } from '@wanxiang/core';
import { HttpResponse, http, ws } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, renderApp, server } from '../../test/harness';
import { moveLabel } from './order-moves';

const OPERATOR = {
  id: 7,
  username: 'ops',
  nickname: '运营小王',
  roles: ['operator'],
  permissions: ['oms:read', 'oms:write', 'runner:read', 'runner:write', 'finance:read', 'finance:write'],
};

const AT = '2024-05-01T06:30:00.000Z';

function order(id: number, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    createdAt: AT,
    updatedAt: AT,
    orderNo: `NO${String(id).padStart(6, '0')}`,
    storeId: 1,
    userId: 5,
    items: [
      {
        goodsId: 11,
        name: '牛肉面',
        sku: '大碗',
        qty: 2,
        unitPriceFen: 2800,
        discountFen: 560,
        payableFen: 5040,
        pointsFen: 0,
        refundedQty: 0,
      },
      {
        goodsId: 12,
        name: '奶茶',
        sku: null,
        qty: 1,
        unitPriceFen: 1800,
        discountFen: 360,
        payableFen: 1440,
        pointsFen: 0,
        refundedQty: 0,
      },
    ],
    goodsFen: 7400,
    memberFen: 0,
    packingFen: 100,
    deliveryFen: 500,
    discountFen: 920,
    couponFen: 0,
    couponId: null,
    pointsUsed: 0,
    pointsFen: 0,
    pointsRefunded: 0,
    payableFen: 7080,
    paidFen: status === 'pending_payment' ? 0 : 7080,
    refundedFen: 0,
    payMethod: 'balance',
    cardId: null,
    fulfilment: 'delivery',
    address: '北京市朝阳区望京街 9 号',
    remark: null,
    runnerId: null,
    status,
    cancelReason: null as string | null,
    ...extra,
  };
}

const RELATIONS = { storeId: { '1': '望京店' }, userId: { '5': '张三' }, runnerId: {} };
const listAnswer = (results: unknown[], total = results.length, relations: object = RELATIONS) =>
  HttpResponse.json({ success: true, data: { results, page: { total, page: 1, limit: 20 }, relations } });

/** Totals of the counted tabs, by their filter. */
const TOTALS: Record<string, number> = {
  pending_payment: 2,
  paid: 3,
  'accepted,preparing': 4,
  ready: 1,
  'delivering,delivered': 0,
};

interface Seen {
  counts: URLSearchParams[];
  lists: URLSearchParams[];
  posts: { path: string; body: unknown }[];
  prices: unknown[];
}

function shop(current: ReturnType<typeof order>) {
  const seen: Seen = { counts: [], lists: [], posts: [], prices: [] };
  let row = current;
  server.use(
    http.get(`${API}/api/admin/stores`, () =>
      listAnswer([
        { id: 1, name: '望京店', status: 'open', address: '望京街 1 号', createdAt: AT, updatedAt: AT },
      ]),
    ),
    http.get(`${API}/api/admin/orders`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      if (q.get('id')) return listAnswer([row]);
      const filter = q.get('status') ?? q.get('status_in');
      if (q.get('limit') === '1' && filter) {
        seen.counts.push(q);
        return listAnswer([], TOTALS[filter] ?? 0);
      }
      seen.lists.push(q);
      return listAnswer([row], 1);
    }),
    http.get(`${API}/api/admin/orderRefunds`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      return listAnswer([], q.get('status') === 'pending' ? 1 : 0, {});
    }),
    http.get(`${API}/api/admin/orders/:id/history`, () =>
      HttpResponse.json({
        success: true,
        data: [
          { from: null, to: 'pending_payment', operator: '运营小王', note: '下单', at: AT },
          { from: 'pending_payment', to: 'paid', operator: '运营小王', note: null, at: AT },
        ],
      }),
    ),
    http.post(`${API}/api/admin/orders/:id/:action`, async ({ request, params }) => {
      const body = await request.json();
      seen.posts.push({ path: `${params.id}/${params.action}`, body });
      if (params.action === 'print')
        return HttpResponse.json({ success: true, data: { id: 9, status: 'failed', error: '打印机离线' } });
      if (params.action === 'reject')
        row = { ...row, status: 'cancelled', cancelReason: (body as { reason: string }).reason };
      return HttpResponse.json({ success: true, message: '操作成功', data: row });
    }),
    http.get(`${API}/api/admin/goods`, () =>
      listAnswer(
        [
          {
            id: 11,
            storeId: 1,
            categoryId: 3,
            name: '牛肉面',
            priceFen: 2800,
            stock: 50,
            specs: null,
            status: 'onSale',
            sort: 0,
            createdAt: AT,
            updatedAt: AT,
          },
          {
            id: 12,
            storeId: 1,
            categoryId: 4,
            name: '奶茶',
            priceFen: 1500,
            stock: 50,
            specs: [
              { name: '中杯', priceFen: 1500, stock: 10 },
              { name: '大杯', priceFen: 1800, stock: 10 },
            ],
            status: 'onSale',
            sort: 1,
            createdAt: AT,
            updatedAt: AT,
          },
        ],
        2,
        { categoryId: { '3': '面食', '4': '饮品' } },
      ),
    ),
    http.post(`${API}/api/admin/orders/price`, async ({ request }) => {
      const body = (await request.json()) as { items: { qty: number }[] };
      seen.prices.push(body);
      const qty = body.items.reduce((n, l) => n + l.qty, 0);
      const goods = 2800 * qty;
      return HttpResponse.json({
        success: true,
        data: {
          lines: body.items.map((l) => ({
            goodsId: 11,
            sku: null,
            qty: l.qty,
            unitPriceFen: 2800,
            amountFen: 2800 * l.qty,
            discountFen: 0,
            pointsFen: 0,
            payableFen: 2800 * l.qty,
          })),
          goodsFen: goods,
          memberFen: 0,
          packingFen: 0,
          deliveryFen: 0,
          discountFen: 0,
          couponFen: 0,
          pointsFen: 0,
          pointsUsed: 0,
          payableFen: goods,
          reduction: {
            tier: null,
            next: { thresholdFen: 6000, reduceFen: 500, shortFen: 6000 - goods },
            message: '再买 ¥4.00 可享满 ¥60.00 减 ¥5.00',
          },
          coupon: null,
          points: null,
        },
      });
    }),
    http.post(`${API}/api/admin/orders`, async ({ request }) => {
      const body = await request.json();
      seen.posts.push({ path: 'create', body });
      return HttpResponse.json({
        success: true,
        data: order(50, 'pending_payment', { userId: null, payMethod: 'cash' }),
      });
    }),
  );
  return seen;
}

const socket = ws.link(/\/ws$/);
type Client = Parameters<Parameters<typeof socket.addEventListener<'connection'>>[1]>[0]['client'];
let client: Client | null = null;

function signedIn() {
  window.localStorage.setItem('token', 'token-of-ops');
  server.use(http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: OPERATOR })));
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await Promise.all([
    import('../AdminLayout'),
    import('./OrderBoard'),
    import('./OrderDrawer'),
    import('./MoveDialogs'),
    import('./RefundDialog'),
    import('./CounterOrder'),
  ]);
}, 60_000);
beforeEach(() => {
  client = null;
  // The fake /ws accepts the board's subscription; tests push through `client`.
  server.use(
    socket.addEventListener('connection', ({ client: c }) => {
      client = c;
      c.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; topic: string };
        if (message.type === 'subscribe')
          c.send(JSON.stringify({ type: 'subscribed', topic: message.topic }));
      });
    }),
  );
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const drawer = async () =>
  within(
    await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.wx-order-drawer');
      if (!el?.querySelector('.wx-order-lines')) throw new Error('the drawer is not there yet');
      return el;
    }),
  );
/** The open dialog whose title has `title`. */
const dialog = (title: string) =>
  waitFor(() => {
    const modal = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((m) =>
      m.querySelector('.ant-modal-title')?.textContent?.includes(title),
    );
    if (!modal) throw new Error(`no dialog ${title}`);
    return modal;
  });
const footerButtons = () =>
  [...document.querySelectorAll('.wx-order-drawer .ant-drawer-footer button')].map((b) =>
    (b.textContent ?? '').replace(/\s/g, ''),
  );

describe('the order board', { timeout: 30_000 }, () => {
  it('counts the tabs in progress, shows lines in words, and offers exactly the machine’s moves', async () => {
    signedIn();
    const seen = shop(order(1, 'paid'));
    renderApp('/admin/OMS/order');
    await screen.findByRole('tab', { name: /待接单\s*3/ });
    expect(screen.getByRole('tab', { name: /待支付\s*2/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /制作中\s*4/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /退款\/售后\s*1/ })).toBeTruthy();
    // Only the tabs in progress are counted, each by the list API's status filter.
    expect(seen.counts.map((q) => q.get('status') ?? q.get('status_in')).sort()).toEqual(
      Object.keys(TOTALS).sort(),
    );
    expect(await screen.findByText('牛肉面（大碗）×2 ¥56.00；奶茶 ×1 ¥18.00')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /详\s?情/ }));
    const d = await drawer();
    const lines = within(document.querySelector('.wx-order-lines') as HTMLElement);
    expect(lines.getByText('大碗')).toBeTruthy();
    expect(lines.getByText('¥28.00')).toBeTruthy();
    expect(lines.getByText('¥50.40')).toBeTruthy();
    expect(d.getByText('¥70.80', { selector: '.wx-order-money-total strong' })).toBeTruthy();
    expect(d.getByText('-¥9.20')).toBeTruthy();
    expect(d.getByText('已支付', { selector: '.wx-order-timeline strong' })).toBeTruthy();
    const moves = movesFor({ status: 'paid', fulfilment: 'delivery' }, 'merchant');
    // The orders definition has its print action (domain/printing): a paid order's receipt prints.
    expect(footerButtons().sort()).toEqual([...moves.map(moveLabel), '退款', '打印小票'].sort());
  });

  it('asks a reason before 拒单 and sends it', async () => {
    signedIn();
    const seen = shop(order(2, 'paid'));
    renderApp('/admin/OMS/order?order=2');
    await drawer();
    fireEvent.click(screen.getByRole('button', { name: /^拒\s?单$/ }));
    const modal = await dialog('拒单：NO000002');
    fireEvent.click(within(modal).getByRole('button', { name: /^拒\s?单$/ }));
    await within(modal).findByText('请填写拒单原因');
    expect(seen.posts).toEqual([]);
    fireEvent.click(within(modal).getByText('商品已售完'));
    fireEvent.click(within(modal).getByRole('button', { name: /^拒\s?单$/ }));
    await waitFor(() => expect(seen.posts).toEqual([{ path: '2/reject', body: { reason: '商品已售完' } }]));
  });

  it('refunds units of a line for the amount core plans, and sends the lines', async () => {
    signedIn();
    const seen = shop(order(3, 'completed'));
    renderApp('/admin/OMS/order?order=3');
    await drawer();
    expect(footerButtons()).toEqual(['打印小票', '退款']);
    fireEvent.click(screen.getByRole('button', { name: /^退\s?款$/ }));
    const modal = await dialog('退款：NO000003');
    // 整单退 first: everything paid and not refunded.
    expect(within(modal).getByText('¥70.80', { selector: 'strong' })).toBeTruthy();
    fireEvent.click(within(modal).getByText('按商品'));
    expect(within(modal).getByText('请选择要退的商品')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('退 牛肉面 件数'), { target: { value: '1' } });
    // One of two units of a line that cost ¥50.40 after its discounts.
    await within(modal).findByText('¥25.20', { selector: 'strong' });
    fireEvent.change(within(modal).getByLabelText('退款原因'), { target: { value: '少送一份' } });
    fireEvent.click(within(modal).getByRole('button', { name: /^确认退款 ¥25\.20$/ }));
    await waitFor(() =>
      expect(seen.posts).toEqual([
        { path: '3/refund', body: { reason: '少送一份', lines: [{ index: 0, qty: 1 }] } },
      ]),
    );
  });

  it('offers 打印小票 when the orders definition has print, and says why a job failed', async () => {
    const actions = getResource('orders').actions as unknown as { name: string }[];
    actions.push({ name: 'print', label: '打印小票', effect: { kind: 'handler' } } as never);
    try {
      signedIn();
      const seen = shop(order(4, 'accepted'));
      renderApp('/admin/OMS/order?order=4');
      await drawer();
      fireEvent.click(screen.getByRole('button', { name: /打印小票/ }));
      await screen.findByText('打印失败：打印机离线');
      expect(seen.posts).toEqual([{ path: '4/print', body: {} }]);
    } finally {
      actions.pop();
    }
  });

  it('hears new orders live: a notification, the 新 mark, and one refresh for a burst', async () => {
    signedIn();
    const seen = shop(order(5, 'paid'));
    renderApp('/admin/OMS/order');
    await screen.findByText('实时');
    await screen.findByRole('tab', { name: /待接单\s*3/ });
    const rounds = () => seen.counts.filter((q) => q.get('status') === 'paid').length;
    const before = rounds();
    const push = (data: unknown) => client?.send(JSON.stringify({ topic: 'orders', data }));
    push({ type: 'created', order: { id: 6, orderNo: 'NO000006', storeId: 1, status: 'pending_payment' } });
    push({
      type: 'status',
      order: { id: 5, orderNo: 'NO000005', storeId: 1, status: 'paid', from: 'pending_payment' },
    });
    push({
      type: 'status',
      order: { id: 6, orderNo: 'NO000006', storeId: 1, status: 'paid', from: 'pending_payment' },
    });
    await screen.findByText('订单 NO000005 已支付，请及时接单');
    expect(screen.getByText('订单 NO000006 已支付，请及时接单')).toBeTruthy();
    // The row that arrived is marked until opened.
    expect(await screen.findByText('新')).toBeTruthy();
    await waitFor(() => expect(rounds()).toBeGreaterThan(before));
    // Three messages, one refresh (undebounced, all three would have asked at once).
    expect(rounds()).toBe(before + 1);
  });

  it('prices the counter’s cart once for a burst of changes, then creates the order and asks for the money', async () => {
    signedIn();
    const seen = shop(order(7, 'paid'));
    renderApp('/admin/OMS/order');
    fireEvent.click(await screen.findByRole('button', { name: /新建订单/ }));
    const noodles = await screen.findByRole('button', { name: '牛肉面' });
    fireEvent.click(noodles);
    fireEvent.click(noodles);
    fireEvent.click(noodles);
    await screen.findByText('再买 ¥4.00 可享满 ¥60.00 减 ¥5.00');
    expect(seen.prices).toEqual([
      {
        storeId: 1,
        userId: null,
        items: [{ goodsId: 11, sku: null, qty: 3 }],
        fulfilment: 'dineIn',
        points: null,
      },
    ]);
    // Walk-in customers pay in cash or WeChat: balance and cards are a member's.
    expect(
      (
        screen
          .getByText('余额', { selector: '.ant-radio-button-wrapper span' })
          .closest('label') as HTMLElement
      ).className,
    ).toMatch(/disabled/);
    fireEvent.click(screen.getByRole('button', { name: /^下单 ¥84\.00$/ }));
    await dialog('收款：NO000050');
    expect(seen.posts).toEqual([
      {
        path: 'create',
        body: {
          storeId: 1,
          userId: null,
          items: [{ goodsId: 11, sku: null, qty: 3 }],
          fulfilment: 'dineIn',
          points: null,
          payMethod: 'cash',
        },
      },
    ]);
  });
});

/**
 * jsdom has no Web Audio: an AudioContext that starts suspended, runs once resumed (as a browser's
 * does after the first click), and records the frequency of every oscillator started — the notes
 * a person would hear.
 */
function fakeWebAudio() {
  const notes: number[] = [];
  const contexts: { state: string }[] = [];
  /** An audio node: `connect` hands back the next node, as Web Audio's does. */
  function node<T extends object>(extra: T) {
    return { ...extra, connect: (next: unknown) => next };
  }
  class FakeAudioContext {
    state = 'suspended';
    currentTime = 0;
    destination = {};
    constructor() {
      contexts.push(this);
    }
    async resume() {
      this.state = 'running';
    }
    createOscillator() {
      const oscillator = node({
        type: 'sine',
        frequency: { value: 0 },
        start: () => notes.push(oscillator.frequency.value),
        stop: () => undefined,
      });
      return oscillator;
    }
    createGain() {
      return node({
        gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      });
    }
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  return { notes, contexts };
}

describe('the new-order chime', { timeout: 30_000 }, () => {
  it('plays once when an order is paid over the live feed, and not for news that brings no new order', async () => {
    const audio = fakeWebAudio();
    try {
      signedIn();
      const seen = shop(order(5, 'paid'));
      renderApp('/admin/OMS/order');
      await screen.findByText('实时');
      await screen.findByRole('tab', { name: /待接单\s*3/ });
      const sound = () => document.querySelector('.wx-order-sound') as HTMLElement;
      // The browser's autoplay rule: no sound until the page has been clicked.
      expect(sound().textContent).toBe('提示音开（点击页面后生效）');
      fireEvent.pointerDown(document.body);
      await waitFor(() => expect(sound().textContent).toBe('提示音开'));

      const rounds = () => seen.counts.filter((q) => q.get('status') === 'paid').length;
      const push = (data: unknown) => client?.send(JSON.stringify({ topic: 'orders', data }));
      // News of orders already known, and an order not paid yet: the board refreshes, silently.
      let before = rounds();
      push({ type: 'created', order: { id: 6, orderNo: 'NO000006', storeId: 1, status: 'pending_payment' } });
      push({
        type: 'status',
        order: { id: 5, orderNo: 'NO000005', storeId: 1, status: 'accepted', from: 'paid' },
      });
      push({ type: 'refund', order: { id: 5, orderNo: 'NO000005', storeId: 1, status: 'accepted' } });
      await waitFor(() => expect(rounds()).toBeGreaterThan(before));
      expect(audio.notes).toEqual([]);

      // An order just paid: one chime, its two notes.
      before = rounds();
      push({
        type: 'status',
        order: { id: 6, orderNo: 'NO000006', storeId: 1, status: 'paid', from: 'pending_payment' },
      });
      await screen.findByText('订单 NO000006 已支付，请及时接单');
      expect(audio.notes).toEqual([880, 1320]);
      // The refresh that follows brings the same orders: nothing more is played.
      await waitFor(() => expect(rounds()).toBeGreaterThan(before));
      expect(audio.notes).toEqual([880, 1320]);
    } finally {
      // beep.ts keeps its context for the page's life: closed, it plays nothing in later tests.
      for (const context of audio.contexts) context.state = 'closed';
      vi.unstubAllGlobals();
    }
  });
});
