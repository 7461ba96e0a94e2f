/**
 * The notice bridge: core's notices reach antd notifications, including those sent before React
 * mounted, and the ones on screen survive the reload of spec §8 (登录超时 is a flash message).
 */
import { render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Root } from '../app/Root';
import { startServices } from '../app/services';
import { API, makeServices, server } from '../test/harness';
import { NoticeHub } from './notices';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('NoticeHub', () => {
  it('stashes only what is still on screen (4.5 s) and restores it once', () => {
    let now = 0;
    const hub = new NoticeHub(() => now);
    hub.notify('info', '早先的提示');
    now = 5000;
    hub.notify('warning', '登录超时 令牌已失效');
    hub.stash(window.sessionStorage);

    const next = new NoticeHub();
    const shown: string[] = [];
    next.attach((n) => shown.push(`${n.level}:${n.message}`));
    next.restore(window.sessionStorage);
    next.restore(window.sessionStorage);
    expect(shown).toEqual(['warning:登录超时 令牌已失效']);
  });

  it('ignores a stash someone tampered with', () => {
    window.sessionStorage.setItem('pendingNotices', '[{"level":"evil","message":1},"x"');
    const hub = new NoticeHub();
    const shown: unknown[] = [];
    hub.attach((n) => shown.push(n));
    hub.restore(window.sessionStorage);
    expect(shown).toEqual([]);
  });
});

describe('NoticeBridge', () => {
  it('shows notices sent before it mounted, as antd notifications', async () => {
    const services = makeServices();
    services.notices.notify('success', '操作成功');
    render(
      <Root services={services}>
        <div />
      </Root>,
    );
    await screen.findByText('操作成功');
    expect(document.querySelector('.ant-notification-notice-success')).not.toBeNull();
  });

  it('a 401 removes the token, signs the session out, and 登录超时 is shown again after the reload', async () => {
    window.localStorage.setItem('token', 'revoked');
    server.use(
      http.get(`${API}/api/user/current`, () =>
        HttpResponse.json({ success: false, errorCode: 401, message: '令牌已失效' }, { status: 401 }),
      ),
    );
    const before = makeServices();
    startServices(before, window.sessionStorage);
    await waitFor(() => expect(before.reloadPage).toHaveBeenCalledTimes(1));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(before.session.getSnapshot().matches('signedOut')).toBe(true);

    // The page after the reload.
    const after = makeServices();
    startServices(after, window.sessionStorage);
    render(
      <Root services={after}>
        <div />
      </Root>,
    );
    await screen.findByText('登录超时 令牌已失效');
    expect(document.querySelector('.ant-notification-notice-warning')).not.toBeNull();
    expect(window.sessionStorage.getItem('pendingNotices')).toBeNull();
  });

  it('reloads once when several calls fail at the same time', async () => {
    const services = makeServices();
    server.use(
      http.get(`${API}/api/anything`, () =>
        HttpResponse.json({ success: false, errorCode: 1, message: 'x' }),
      ),
    );
    await Promise.allSettled([
      services.http.request('/api/anything'),
      services.http.request('/api/anything'),
    ]);
    expect(services.reloadPage).toHaveBeenCalledTimes(1);
  });
});
