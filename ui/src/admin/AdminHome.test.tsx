/** The admin home: the spec's 'admin' heading, and a card per figure the dashboard answers. */
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server, signedInAs, USERS } from '../test/harness';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const dashboard = (data: Record<string, unknown>) =>
  server.use(http.get(`${API}/api/admin/dashboard`, () => HttpResponse.json({ success: true, data })));

describe('admin home', { timeout: 20_000 }, () => {
  it('shows each figure as a card that links to its screen, today against yesterday', async () => {
    signedInAs(USERS.admin);
    dashboard({
      at: 0,
      ordersToday: { today: 12, yesterday: 8 },
      revenueTodayFen: { today: 45600, yesterday: 60800 },
      awaitingAcceptance: 3,
      pendingRefunds: 0,
      jobsDown: 2,
      certificatesExpiring: 1,
    });
    renderApp('/admin');
    // The first render transforms the lazy screens' modules: slow on a busy machine.
    await screen.findByRole('heading', { name: 'admin' }, { timeout: 15_000 });
    const orders = await screen.findByRole('link', { name: '今日订单：12' });
    expect(orders.getAttribute('href')).toBe('/admin/OMS/order');
    expect(within(orders).getByText(/昨日同时段 8/).textContent).toContain('↑ 50.0%');
    const revenue = screen.getByRole('link', { name: '今日营业额：¥456.00' });
    expect(revenue.getAttribute('href')).toBe('/admin/OMS/income');
    expect(within(revenue).getByText(/昨日同时段 ¥608.00/).textContent).toContain('↓ 25.0%');
    expect(screen.getByRole('link', { name: '待接单：3' }).getAttribute('href')).toBe(
      '/admin/OMS/order?tab=new',
    );
    expect(screen.getByRole('link', { name: '待处理退款：0' }).getAttribute('href')).toBe(
      '/admin/OMS/order?tab=refunds',
    );
    expect(screen.getByRole('link', { name: '故障监控：2' }).getAttribute('href')).toBe(
      '/admin/monitor/job?status=down',
    );
    expect(screen.getByRole('link', { name: '证书即将到期：1' }).getAttribute('href')).toBe(
      '/admin/monitor/ssl?status=expiring',
    );
    // The answer left out deliveries (no runner:read): no card for them.
    expect(screen.queryByText('待派单')).toBeNull();
  });

  it('shows only the heading and a hint when none of the user’s areas has a figure', async () => {
    signedInAs(USERS.editor);
    renderApp('/admin');
    await screen.findByText('从左侧菜单选择要打开的页面。');
    expect(screen.getByRole('heading', { name: 'admin' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /今日订单/ })).toBeNull();
  });

  it('offers a retry when the figures cannot be loaded', async () => {
    signedInAs(USERS.admin);
    server.use(
      http.get(`${API}/api/admin/dashboard`, () =>
        HttpResponse.json({ success: false, errorCode: 500, message: '系统错误' }, { status: 500 }),
      ),
    );
    renderApp('/admin');
    await screen.findByText(/首页数据加载失败/);
    dashboard({ at: 0, awaitingRunner: 4 });
    screen.getByRole('button', { name: /重\s?试/ }).click();
    expect((await screen.findByRole('link', { name: '待派单：4' })).getAttribute('href')).toBe(
      '/admin/runner/order?status=waiting',
    );
  });
});
