/** /scan_login's QR tab and the confirm screen against msw: what each state shows and leads to. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http, ws } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, renderApp, server, signedInAs, USERS } from '../test/harness';

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Transform the screens' chunks before the first test's clock runs (a cold transform is slow).
  await Promise.all([import('./ScanLogin'), import('./ScanConfirm'), import('../public/PublicLayout')]);
}, 60_000);
afterEach(() => {
  server.resetHandlers();
  window.localStorage.clear();
});
afterAll(() => server.close());

const socket = ws.link('ws://*/ws');
type SocketClient = Parameters<Parameters<typeof socket.addEventListener<'connection'>>[1]>[0]['client'];
const refuse = (client: SocketClient) => client.close(1011);
/** What the fake `/ws` does with a connection; by default it is unavailable and the screen polls. */
let onConnection = refuse;
beforeEach(() => {
  onConnection = refuse;
  server.use(socket.addEventListener('connection', ({ client }) => onConnection(client)));
});

const TICKET = 'ticket-0123456789abcdef';
const CONFIRM_URL = `http://localhost:3000/scan_login/confirm/${TICKET}`;

function ticketHandler() {
  let issued = 0;
  return {
    count: () => issued,
    handler: http.post(`${API}/api/login/qr`, () => {
      issued++;
      return HttpResponse.json({
        success: true,
        data: {
          ticket: `${TICKET}-${issued}`,
          expire: Date.now() + 120_000,
          expiresIn: 120_000,
          confirmUrl: `${CONFIRM_URL}-${issued}`,
        },
      });
    }),
  };
}

const statusAnswers = (...answers: object[]) => {
  let n = 0;
  return http.get(`${API}/api/login/qr/:ticket`, () =>
    HttpResponse.json({ success: true, data: answers[Math.min(n++, answers.length - 1)] }),
  );
};

describe('/scan_login, 扫码登录', () => {
  it('is the default tab: the QR code of the confirm URL, 等待扫码 and a countdown', async () => {
    const tickets = ticketHandler();
    server.use(tickets.handler, statusAnswers({ status: 'pending', expire: Date.now() + 120_000 }));
    renderApp('/scan_login');
    const image = await screen.findByAltText('登录二维码');
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('tab', { name: '扫码登录' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('等待扫码')).toBeTruthy();
    expect(screen.getByText('2:00')).toBeTruthy();
    expect(document.querySelector('[data-confirm-url]')?.getAttribute('data-confirm-url')).toBe(
      `${CONFIRM_URL}-1`,
    );
  });

  it('shows 已扫码，请在手机上确认 once the code is scanned', async () => {
    const tickets = ticketHandler();
    server.use(tickets.handler, statusAnswers({ status: 'scanned', expire: Date.now() + 100_000 }));
    renderApp('/scan_login');
    await screen.findByText('已扫码，请在手机上确认');
  });

  it('signs in on confirmation and returns to the remembered public page', async () => {
    window.localStorage.setItem('publicPath', '/color');
    const tickets = ticketHandler();
    server.use(
      tickets.handler,
      statusAnswers({
        status: 'confirmed',
        token: 'qr-token',
        expire: Date.now() + 3_600_000,
        authority: ['editor'],
        username: 'editor',
      }),
      http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: USERS.editor })),
    );
    const { router } = renderApp('/scan_login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/color'));
    expect(window.localStorage.getItem('token')).toBe('qr-token');
    // The same toast as the password form's.
    await screen.findByText('登录成功');
  });

  it('follows the /ws push channel: subscribes to the ticket’s login topic, shows the scan', async () => {
    const tickets = ticketHandler();
    const subscriptions: unknown[] = [];
    let polls = 0;
    server.use(
      tickets.handler,
      http.get(`${API}/api/login/qr/:ticket`, () => {
        polls++;
        return HttpResponse.json({
          success: true,
          data: { status: 'pending', expire: Date.now() + 120_000 },
        });
      }),
    );
    onConnection = (client) => {
      client.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { topic: string };
        subscriptions.push(message);
        client.send(JSON.stringify({ type: 'subscribed', topic: message.topic }));
        client.send(JSON.stringify({ topic: message.topic, data: { status: 'scanned' } }));
      });
    };
    renderApp('/scan_login');
    await screen.findByText('已扫码，请在手机上确认');
    expect(subscriptions).toEqual([{ type: 'subscribe', topic: `login:${TICKET}-1` }]);
    // With pushes arriving, nothing was polled.
    expect(polls).toBe(0);
  });

  it('a cancel on the phone shows 已取消 with 重新获取, which asks for a new code', async () => {
    const tickets = ticketHandler();
    server.use(
      tickets.handler,
      statusAnswers({ status: 'cancelled' }, { status: 'pending', expire: Date.now() + 120_000 }),
    );
    renderApp('/scan_login');
    fireEvent.click(await screen.findByRole('button', { name: /重新获取/ }));
    await screen.findByText('等待扫码');
    expect(tickets.count()).toBe(2);
  });

  it('an expired code is replaced a few times by itself, then offers 刷新', async () => {
    let issued = 0;
    server.use(
      http.post(`${API}/api/login/qr`, () => {
        issued++;
        return HttpResponse.json({
          success: true,
          data: { ticket: `${TICKET}-${issued}`, expire: Date.now(), expiresIn: 0, confirmUrl: CONFIRM_URL },
        });
      }),
      statusAnswers({ status: 'expired' }),
    );
    renderApp('/scan_login');
    const refresh = await screen.findByRole('button', { name: /刷新/ }, { timeout: 8000 });
    expect(screen.getByText('二维码已过期')).toBeTruthy();
    fireEvent.click(refresh);
    expect(issued).toBeGreaterThanOrEqual(6);
    await waitFor(() => expect(issued).toBeGreaterThanOrEqual(7));
  }, 15_000);

  it('says why a code could not be had', async () => {
    server.use(
      http.post(`${API}/api/login/qr`, () =>
        HttpResponse.json(
          { success: false, errorCode: 429, message: '操作过于频繁，请 30 秒后再试' },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      ),
    );
    renderApp('/scan_login');
    await screen.findByText('操作过于频繁，请 30 秒后再试');
    expect(screen.getByRole('button', { name: /重新获取/ })).toBeTruthy();
  });
});

describe('/scan_login/confirm/:ticket', () => {
  const scanInfo = {
    status: 'scanned',
    expire: Date.now() + 100_000,
    client: {
      ip: '203.0.113.7',
      userAgent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
      requestedAt: Date.UTC(2025, 4, 1, 6, 30),
    },
  };

  it('signed in: reports the scan, shows who is asking, and confirms', async () => {
    signedInAs(USERS.editor);
    const calls: string[] = [];
    server.use(
      http.post(`${API}/api/login/qr/:ticket/:action`, ({ params }) => {
        calls.push(`${params.action} ${params.ticket}`);
        return HttpResponse.json({
          success: true,
          data: params.action === 'scan' ? scanInfo : { status: 'confirmed' },
        });
      }),
    );
    renderApp(`/scan_login/confirm/${TICKET}`);
    await screen.findByRole('heading', { name: '确认登录' });
    expect(screen.getByText('Safari 17 · macOS')).toBeTruthy();
    expect(screen.getByText('203.0.113.7')).toBeTruthy();
    expect(screen.getByText('2025-05-01 14:30')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确认登录' }));
    await screen.findByRole('heading', { name: '已确认登录' });
    expect(calls).toEqual([`scan ${TICKET}`, `confirm ${TICKET}`]);
  });

  it('取消 cancels; a refused scan says why', async () => {
    signedInAs(USERS.editor);
    server.use(
      http.post(`${API}/api/login/qr/:ticket/:action`, ({ params }) =>
        HttpResponse.json({
          success: true,
          data: params.action === 'scan' ? scanInfo : { status: 'cancelled' },
        }),
      ),
    );
    const first = renderApp(`/scan_login/confirm/${TICKET}`);
    fireEvent.click(await screen.findByRole('button', { name: /^取\s?消$/ }));
    await screen.findByRole('heading', { name: '已取消登录' });
    first.unmount();

    server.use(
      http.post(`${API}/api/login/qr/:ticket/scan`, () =>
        HttpResponse.json(
          { success: false, errorCode: 409, message: '二维码已过期，请在登录页刷新后重新扫码' },
          { status: 409 },
        ),
      ),
    );
    renderApp(`/scan_login/confirm/${TICKET}`);
    await screen.findByText('二维码已过期，请在登录页刷新后重新扫码');
  });

  it('signed out: the password form in place (no redirect), then the confirmation', async () => {
    server.use(
      http.post(`${API}/api/login/signin`, () =>
        HttpResponse.json({ success: true, data: { token: 't-editor', authority: ['editor'], expire: 1 } }),
      ),
      http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: USERS.editor })),
      http.post(`${API}/api/login/qr/:ticket/scan`, () =>
        HttpResponse.json({ success: true, data: scanInfo }),
      ),
    );
    const { router } = renderApp(`/scan_login/confirm/${TICKET}`);
    await screen.findByRole('heading', { name: '登录后确认' });
    await screen.findByAltText('验证码');
    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: 'editor' } });
    fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: 'editor-pass-1' } });
    fireEvent.change(screen.getByPlaceholderText('验证码'), { target: { value: 'test' } });
    fireEvent.click(document.querySelector('button[type="submit"]') as HTMLButtonElement);
    await screen.findByRole('heading', { name: '确认登录' });
    expect(router.state.location.pathname).toBe(`/scan_login/confirm/${TICKET}`);
  });
});
