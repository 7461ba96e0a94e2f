/** The typed auth calls of API.md "Auth", through the real HTTP client against msw handlers. */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createAuthApi, createHttpClient } from '../src/index';
import { recordingPorts } from './support/ports';

const API = 'http://api.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function authApi(token: string | null = null) {
  const rec = recordingPorts(token);
  return { ...rec, api: createAuthApi(createHttpClient({ ...rec.ports, baseURL: API })) };
}

const user = {
  id: 1,
  username: 'admin',
  nickname: '管理员',
  roles: ['admin'],
  permissions: ['system:read'],
};

describe('createAuthApi', () => {
  it('captcha: GET /api/captcha/request, top-level captchaId and data → {captchaId, image}', async () => {
    const image = 'data:image/svg+xml;base64,PHN2Zy8+';
    server.use(
      http.get(`${API}/api/captcha/request`, () =>
        HttpResponse.json({ success: true, captchaId: 'c-1', data: image }),
      ),
    );
    const { api, log } = authApi();
    await expect(api.captcha()).resolves.toEqual({ captchaId: 'c-1', image });
    expect(log).toEqual([]);
  });

  it('signIn: POSTs the four fields to /api/login/signin and returns data', async () => {
    let body: unknown;
    server.use(
      http.post(`${API}/api/login/signin`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          success: true,
          message: '登录成功',
          data: { token: 'tok', authority: ['admin'], expire: 1_900_000_000_000 },
        });
      }),
    );
    const { api, log } = authApi();
    const request = { username: 'admin', password: 'pw', captchaId: 'c-1', captchaCode: 'abcd' };
    await expect(api.signIn(request)).resolves.toEqual({
      token: 'tok',
      authority: ['admin'],
      expire: 1_900_000_000_000,
    });
    expect(body).toEqual(request);
    // The login machine toasts 登录成功 itself: the client must not toast it a second time.
    expect(log).toEqual([]);
  });

  it('signIn is silent on a login failure (10001) and rejects with the ApiError', async () => {
    server.use(
      http.post(`${API}/api/login/signin`, () =>
        HttpResponse.json({ success: false, errorCode: 10001, message: '验证码错误或已过期' }),
      ),
    );
    const { api, log } = authApi();
    const failure = api.signIn({ username: 'a', password: 'b', captchaId: 'c', captchaCode: 'd' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ errorCode: 10001, message: '验证码错误或已过期' });
    expect(log).toEqual([]);
  });

  it('currentUser: GET /api/user/current with the token, returns data', async () => {
    let authorization: string | null = null;
    server.use(
      http.get(`${API}/api/user/current`, ({ request }) => {
        authorization = request.headers.get('authorization');
        return HttpResponse.json({ success: true, data: user });
      }),
    );
    const { api } = authApi('tok');
    await expect(api.currentUser()).resolves.toEqual(user);
    expect(authorization).toBe('Bearer tok');
  });

  it('signOut: GET /api/login/signout, resolves on success without a toast', async () => {
    let called = 0;
    server.use(
      http.get(`${API}/api/login/signout`, () => {
        called++;
        return HttpResponse.json({ success: true, data: null, message: '已退出登录' });
      }),
    );
    const { api, log } = authApi('tok');
    await expect(api.signOut()).resolves.toBeUndefined();
    expect(called).toBe(1);
    expect(log).toEqual([]);
  });

  it('signOut rejects when the server refuses', async () => {
    server.use(
      http.get(`${API}/api/login/signout`, () =>
        HttpResponse.json({ success: false, errorCode: 409, message: 'x' }, { status: 409 }),
      ),
    );
    await expect(authApi('tok').api.signOut()).rejects.toMatchObject({ status: 409 });
  });

  it('publicConfig: GET /api/public/config, returns data', async () => {
    const config = {
      productName: '万象',
      pageTitle: '万象',
      copyright: '2024',
      version: 'abc123',
      wsHost: '',
      apiHost: '',
      allowRegistration: false,
    };
    server.use(
      http.get(`${API}/api/public/config`, () => HttpResponse.json({ success: true, data: config })),
    );
    await expect(authApi().api.publicConfig()).resolves.toEqual(config);
  });
});
