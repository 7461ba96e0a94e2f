/** The login form's own logic: the required-field rules (core's wording) and what a result leads to. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server, USERS } from '../test/harness';

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // The back office's chunks are transformed on first import; do it before the clock of a test runs
  // (the 登录成功 toast stays 4.5 s, less than a cold transform of the admin layout may take).
  await Promise.all([import('../admin/AdminLayout'), import('../admin/AdminHome'), import('./ScanLogin')]);
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const field = (name: string) => screen.getByPlaceholderText(name) as HTMLInputElement;
const submit = () => fireEvent.click(document.querySelector('button[type="submit"]') as HTMLButtonElement);

async function captchaShown(): Promise<string> {
  const image = await screen.findByAltText('验证码');
  return image.getAttribute('src') ?? '';
}

describe('LoginForm', () => {
  it('asks for each field with core’s form messages and calls nothing until they are there', async () => {
    let signIns = 0;
    server.use(
      http.post(`${API}/api/login/signin`, () => {
        signIns++;
        return HttpResponse.json({ success: false, errorCode: 10002, message: '用户名或密码错误' });
      }),
    );
    renderApp('/admin/login');
    await captchaShown();
    submit();
    await screen.findByText('请输入用户名');
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    expect(document.activeElement).toBe(field('用户名'));

    fireEvent.change(field('用户名'), { target: { value: '   ' } });
    expect(screen.getByText('用户名不能为空字符')).toBeTruthy();
    fireEvent.change(field('用户名'), { target: { value: 'admin' } });
    expect(screen.queryByText('用户名不能为空字符')).toBeNull();
    expect(signIns).toBe(0);
  });

  it('on a failure toasts 登录失败 with code and message, and clears the answer for the new captcha', async () => {
    server.use(
      http.post(`${API}/api/login/signin`, () =>
        HttpResponse.json({ success: false, errorCode: 10001, message: '验证码错误或已过期' }),
      ),
    );
    renderApp('/admin/login');
    const first = await captchaShown();
    fireEvent.change(field('用户名'), { target: { value: 'admin' } });
    fireEvent.change(field('密码'), { target: { value: 'secret' } });
    fireEvent.change(field('验证码'), { target: { value: 'abcd' } });
    submit();
    await screen.findByText('登录失败 10001 验证码错误或已过期');
    await waitFor(() => expect(screen.getByAltText('验证码').getAttribute('src')).not.toBe(first));
    expect(field('验证码').value).toBe('');
    expect(field('用户名').value).toBe('admin');
  });

  it('sends what was typed with the captcha id, stores the token and opens /admin', async () => {
    let request: unknown = null;
    let captchaId = '';
    server.use(
      http.get(`${API}/api/captcha/request`, () => {
        captchaId = 'the-captcha';
        return HttpResponse.json({ success: true, captchaId, data: 'data:image/svg+xml;base64,AAAA' });
      }),
      http.post(`${API}/api/login/signin`, async ({ request: r }) => {
        request = await r.json();
        return HttpResponse.json({
          success: true,
          data: { token: 'fresh-token', authority: ['admin'], expire: 1 },
        });
      }),
      http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: USERS.admin })),
    );
    const { router } = renderApp('/admin/login');
    await captchaShown();
    fireEvent.change(field('用户名'), { target: { value: 'admin' } });
    fireEvent.change(field('密码'), { target: { value: 'Admin#Test-2024' } });
    fireEvent.change(field('验证码'), { target: { value: 'test' } });
    submit();
    await screen.findByRole('heading', { name: 'admin' });
    expect(request).toEqual({
      username: 'admin',
      password: 'Admin#Test-2024',
      captchaId: 'the-captcha',
      captchaCode: 'test',
    });
    expect(window.localStorage.getItem('token')).toBe('fresh-token');
    expect(router.state.location.pathname).toBe('/admin');
    expect(screen.getByText('登录成功')).toBeTruthy();
  });

  it('/scan_login returns to the remembered public page after signing in', async () => {
    window.localStorage.setItem('publicPath', '/doc/search?q=%E5%90%88%E5%90%8C');
    server.use(
      http.post(`${API}/api/login/signin`, () =>
        HttpResponse.json({ success: true, data: { token: 't', authority: ['editor'], expire: 1 } }),
      ),
      http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: USERS.editor })),
    );
    server.use(
      http.post(`${API}/api/login/qr`, () =>
        HttpResponse.json({ success: false, errorCode: 500, message: 'x' }, { status: 503 }),
      ),
    );
    const { router } = renderApp('/scan_login');
    // 扫码登录 is the default tab; the password form is the other one.
    fireEvent.click(await screen.findByRole('tab', { name: '密码登录' }));
    await captchaShown();
    fireEvent.change(field('用户名'), { target: { value: 'editor' } });
    fireEvent.change(field('密码'), { target: { value: 'editor-pass-1' } });
    fireEvent.change(field('验证码'), { target: { value: 'test' } });
    submit();
    await screen.findByRole('heading', { name: '文档搜索' });
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/doc/search?q=%E5%90%88%E5%90%8C',
    );
  });
});
