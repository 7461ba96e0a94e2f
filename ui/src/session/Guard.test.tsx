/** The Guard renders core's decide() for real routes and a real session actor; msw plays the API. */
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server, signedInAs, USERS } from '../test/harness';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('Guard', () => {
  it('sends a signed-out visitor of an admin screen to /admin/login', async () => {
    const { router } = renderApp('/admin/OMS/order');
    await screen.findByText('账号登录');
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('sends a signed-out visitor of a protected public screen to /scan_login, which leads back to it', async () => {
    const { router } = renderApp('/doc/detail/7/2?from=list');
    await screen.findByText('密码登录');
    expect(router.state.location.pathname).toBe('/scan_login');
    expect(screen.getByRole('link', { name: '← 返回网站' }).getAttribute('href')).toBe(
      '/doc/detail/7/2?from=list',
    );
  });

  it('shows Loading... while the current user loads, then the screen', async () => {
    let answer: (user: typeof USERS.admin) => void = () => {};
    window.localStorage.setItem('token', 'token-of-admin');
    server.use(
      http.get(`${API}/api/user/current`, async () => {
        const user = await new Promise<typeof USERS.admin>((resolve) => {
          answer = resolve;
        });
        return HttpResponse.json({ success: true, data: user });
      }),
    );
    renderApp('/admin');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Loading...' })).toBeTruthy());
    answer(USERS.admin);
    await screen.findByRole('heading', { name: 'admin' });
    expect(screen.queryByRole('heading', { name: 'Loading...' })).toBeNull();
  });

  it('ejects a user without roles once: the message, one sign-out call, /admin/login, no token', async () => {
    signedInAs(USERS.guest);
    let signOuts = 0;
    server.use(
      http.get(`${API}/api/login/signout`, () => {
        signOuts++;
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    const { router } = renderApp('/admin/OMS/order');
    await screen.findByText('你没有任何权限！即将退出登录');
    await screen.findByText('账号登录');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(signOuts).toBe(1);
    expect(screen.getAllByText('你没有任何权限！即将退出登录')).toHaveLength(1);
  });

  it('refuses a screen of an area the user may not read with a 403', async () => {
    signedInAs(USERS.editor);
    renderApp('/admin/sys-user');
    await screen.findByText('抱歉，你没有访问此页面的权限，请联系管理员开通。');
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
  });

  it('does not open a screen under another case of its path, which the guard would not know', async () => {
    signedInAs(USERS.editor);
    renderApp('/admin/sys-User');
    await screen.findByText('/admin/sys-User has error Not Found');
  });

  it('sends a signed-in visitor of /admin/login to /admin', async () => {
    signedInAs(USERS.admin);
    const { router } = renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'admin' });
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('offers a retry instead of a blank screen when the current user cannot be loaded', async () => {
    window.localStorage.setItem('token', 'token-of-admin');
    server.use(http.get(`${API}/api/user/current`, () => HttpResponse.error()));
    renderApp('/admin');
    const retry = await screen.findByRole('button', { name: /重\s?试/ });
    expect(screen.getByText('无法获取当前用户信息')).toBeTruthy();
    server.use(
      http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: USERS.admin })),
    );
    retry.click();
    await screen.findByRole('heading', { name: 'admin' });
  });

  it('runs the monitor loader only once the guard allows: no call while signed out', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/api/admin/server-monitor`, () => {
        calls++;
        return HttpResponse.json({ success: true, data: {} });
      }),
    );
    const { router } = renderApp('/admin/sys-tools/monitor');
    await screen.findByText('账号登录');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(calls).toBe(0);
  });
});
