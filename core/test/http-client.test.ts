/**
 * The error catalogue of spec §8 and the envelope table of API.md, row by row, through the real
 * `createHttpClient` (ofetch) against msw handlers. Every effect the client runs is recorded in
 * order by the ports, so each test states the complete list of what the host sees.
 */
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, createHttpClient, HTTP_TIMEOUT_MS, type HttpClientOptions } from '../src/index';
import { type RecordingPorts, recordingPorts, rejectionOf } from './support/ports';

const API = 'http://api.test';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** Every method on /api/thing answers with this body and status. */
function answer(body: unknown, status = 200) {
  server.use(http.all(`${API}/api/thing`, () => HttpResponse.json(body as object, { status })));
}

function client(token: string | null = 'token-1', options: Partial<HttpClientOptions> = {}) {
  const rec: RecordingPorts = recordingPorts(token);
  const api = createHttpClient({ ...rec.ports, baseURL: API, ...options });
  return { ...rec, api };
}

describe('HTTP 200 with success true', () => {
  it('a mutation toasts the server message and resolves with the whole body', async () => {
    answer({ success: true, data: { id: 7 }, message: '保存成功' });
    const { api, log } = client();
    await expect(api.request('/api/thing', { method: 'POST', body: { a: 1 } })).resolves.toEqual({
      success: true,
      data: { id: 7 },
      message: '保存成功',
    });
    expect(log).toEqual(['success: 保存成功']);
  });

  it('a mutation without a message toasts 操作成功', async () => {
    answer({ success: true, data: null });
    const { api, log } = client();
    await api.request('/api/thing', { method: 'PATCH', body: { a: 1 } });
    expect(log).toEqual(['success: 操作成功']);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    '%s counts as a mutation by default',
    async (method) => {
      answer({ success: true, data: null });
      const { api, log } = client();
      await api.request('/api/thing', { method });
      expect(log).toEqual(['success: 操作成功']);
    },
  );

  it('a query (GET) is silent, even when the server sends a message', async () => {
    answer({ success: true, data: [1, 2], message: '查询成功' });
    const { api, log } = client();
    await expect(api.request('/api/thing')).resolves.toEqual({
      success: true,
      data: [1, 2],
      message: '查询成功',
    });
    expect(log).toEqual([]);
  });

  it('the caller can mark a write as a query or as silent', async () => {
    answer({ success: true, data: null, message: '已保存' });
    const { api, log } = client();
    await api.request('/api/thing', { method: 'POST', kind: 'query' });
    await api.request('/api/thing', { method: 'POST', kind: 'silent' });
    expect(log).toEqual([]);
  });

  it('errorCode 1 with success true is an ordinary success, not a revoked session', async () => {
    answer({ success: true, errorCode: 1, data: null });
    const { api, log, token } = client();
    await api.request('/api/thing');
    expect(log).toEqual([]);
    expect(token()).toBe('token-1');
  });
});

describe('HTTP 200 with success false', () => {
  it('a query toasts the server message and rejects with an ApiError', async () => {
    answer({ success: false, errorCode: 2001, message: '库存不足' });
    const { api, log, token } = client();
    const error = await rejectionOf(api.request('/api/thing'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, errorCode: 2001, message: '库存不足' });
    expect(log).toEqual(['error: 库存不足']);
    expect(token()).toBe('token-1');
  });

  it('a mutation toasts the server message too', async () => {
    answer({ success: false, errorCode: 2001, message: '库存不足' });
    const { api, log } = client();
    await expect(api.request('/api/thing', { method: 'POST' })).rejects.toBeInstanceOf(ApiError);
    expect(log).toEqual(['error: 库存不足']);
  });

  it('without a message it toasts 操作失败, and the error says so', async () => {
    answer({ success: false, errorCode: 2002 });
    const { api, log } = client();
    const error = await rejectionOf(api.request('/api/thing', { method: 'DELETE' }));
    expect(error).toMatchObject({ status: 200, errorCode: 2002, message: '操作失败' });
    expect(log).toEqual(['error: 操作失败']);
  });

  it('the silent kind rejects with the same ApiError and toasts nothing', async () => {
    answer({ success: false, errorCode: 10001, message: '验证码错误或已过期' });
    const { api, log } = client();
    const error = await rejectionOf(api.request('/api/thing', { method: 'POST', kind: 'silent' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, errorCode: 10001, message: '验证码错误或已过期' });
    expect(log).toEqual([]);
  });

  it('without an errorCode the ApiError carries the HTTP status', async () => {
    answer({ success: false, message: '失败了' });
    const { api } = client();
    await expect(api.request('/api/thing')).rejects.toMatchObject({ status: 200, errorCode: 200 });
  });
});

describe('errorCode 1 with success false (session revoked)', () => {
  it.each(['query', 'mutation', 'silent'] as const)(
    'removes the token and reloads, and nothing else (%s)',
    async (kind) => {
      answer({ success: false, errorCode: 1, message: '账号已停用' });
      const { api, log, token } = client();
      const error = await rejectionOf(api.request('/api/thing', { kind }));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 200, errorCode: 1, message: '账号已停用' });
      expect(log).toEqual(['removeToken', 'reload']);
      expect(token()).toBeNull();
    },
  );
});

describe('HTTP 401', () => {
  it('removes the token, runs logout handling, warns 登录超时 {message}, reloads — in that order', async () => {
    answer({ success: false, errorCode: 401, message: '登录已过期' }, 401);
    const { api, log, token } = client();
    const error = await rejectionOf(api.request('/api/thing'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, errorCode: 401, message: '登录已过期' });
    expect(log).toEqual(['removeToken', 'logout', 'warning: 登录超时 登录已过期', 'reload']);
    expect(token()).toBeNull();
  });

  it('applies to silent calls as well (a session-wide row)', async () => {
    answer({ success: false, errorCode: 401, message: '请先登录' }, 401);
    const { api, log } = client();
    await expect(api.request('/api/thing', { method: 'POST', kind: 'silent' })).rejects.toMatchObject({
      status: 401,
    });
    expect(log).toEqual(['removeToken', 'logout', 'warning: 登录超时 请先登录', 'reload']);
  });

  it('without a body the warning is just 登录超时', async () => {
    server.use(http.get(`${API}/api/thing`, () => new HttpResponse(null, { status: 401 })));
    const { api: client401, log } = client();
    await expect(client401.request('/api/thing')).rejects.toMatchObject({ status: 401, errorCode: 401 });
    expect(log).toEqual(['removeToken', 'logout', 'warning: 登录超时', 'reload']);
  });
});

describe('HTTP 500', () => {
  it('shows the error 系统错误 {message} and rejects', async () => {
    answer({ success: false, errorCode: 500, message: '服务器开小差了（请求编号 r-1）' }, 500);
    const { api, log, token } = client();
    const error = await rejectionOf(api.request('/api/thing', { method: 'POST' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, errorCode: 500, message: '服务器开小差了（请求编号 r-1）' });
    expect(log).toEqual(['error: 系统错误 服务器开小差了（请求编号 r-1）']);
    expect(token()).toBe('token-1');
  });

  it('a plain-text 500 (a proxy page) still reads 系统错误', async () => {
    server.use(
      http.get(`${API}/api/thing`, () => HttpResponse.text('Internal Server Error', { status: 500 })),
    );
    const { api: c, log } = client();
    await expect(c.request('/api/thing')).rejects.toMatchObject({ status: 500, errorCode: 500 });
    expect(log).toEqual(['error: 系统错误']);
  });

  it('applies to silent calls as well', async () => {
    answer({ success: false, errorCode: 500, message: 'boom' }, 500);
    const { api, log } = client();
    await expect(api.request('/api/thing', { kind: 'silent' })).rejects.toBeInstanceOf(ApiError);
    expect(log).toEqual(['error: 系统错误 boom']);
  });
});

describe('other failures are passed to the caller', () => {
  it.each([
    [403, '没有权限执行此操作'],
    [404, '接口不存在'],
    [409, '数据已被修改，请刷新后重试'],
    [429, '操作过于频繁，请 60 秒后再试'],
  ])('%i → ApiError with status, errorCode and message; no toast, token kept', async (status, message) => {
    answer({ success: false, errorCode: status, message }, status);
    const { api, log, token } = client();
    const error = await rejectionOf(api.request('/api/thing', { method: 'POST', body: {} }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, errorCode: status, message });
    expect(log).toEqual([]);
    expect(token()).toBe('token-1');
  });

  it('422 carries the per-field messages of data.fields', async () => {
    answer(
      {
        success: false,
        errorCode: 422,
        message: '输入有误，请检查后重试',
        data: { fields: { name: '请输入名称', priceFen: '价格最小值为0' } },
      },
      422,
    );
    const { api, log } = client();
    const error = await rejectionOf(api.request('/api/thing', { method: 'POST', body: { name: '' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      errorCode: 422,
      message: '输入有误，请检查后重试',
      fields: { name: '请输入名称', priceFen: '价格最小值为0' },
    });
    expect(log).toEqual([]);
  });

  it('a failure without a body still becomes an ApiError with the status as errorCode', async () => {
    server.use(http.delete(`${API}/api/thing`, () => new HttpResponse(null, { status: 404 })));
    const { api: c, log } = client();
    await expect(c.request('/api/thing', { method: 'DELETE' })).rejects.toMatchObject({
      status: 404,
      errorCode: 404,
      message: '操作失败',
      fields: {},
    });
    expect(log).toEqual([]);
  });
});

describe('network failures (no response)', () => {
  it('are passed on as they are: not an ApiError, no effects, token kept', async () => {
    server.use(http.get(`${API}/api/thing`, () => HttpResponse.error()));
    const { api: c, log, token } = client();
    const error = await rejectionOf(c.request('/api/thing'));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ApiError);
    // ofetch's FetchError around the fetch TypeError, with no response attached.
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect((error as { response?: unknown }).response).toBeUndefined();
    expect(log).toEqual([]);
    expect(token()).toBe('token-1');
  });

  it('a mutation is not retried (a retried POST could pay twice)', async () => {
    let calls = 0;
    server.use(
      http.post(`${API}/api/thing`, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const { api: c } = client();
    await expect(c.request('/api/thing', { method: 'POST' })).rejects.not.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });

  it('a query is not retried either, not even on a 500', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/api/thing`, () => {
        calls++;
        return HttpResponse.json({ success: false, errorCode: 500, message: 'x' }, { status: 500 });
      }),
    );
    const { api: c } = client();
    await expect(c.request('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });
});

describe('legacy body spelling code/msg', () => {
  it('a login failure with code and msg', async () => {
    answer({ success: false, code: 10002, msg: '用户名或密码错误' });
    const { api, log } = client();
    await expect(api.request('/api/thing')).rejects.toMatchObject({
      errorCode: 10002,
      message: '用户名或密码错误',
    });
    expect(log).toEqual(['error: 用户名或密码错误']);
  });

  it('code as a numeric string', async () => {
    answer({ success: false, code: '10001', msg: '验证码错误' });
    const { api } = client();
    await expect(api.request('/api/thing', { kind: 'silent' })).rejects.toMatchObject({ errorCode: 10001 });
  });

  it('code 1 revokes the session like errorCode 1', async () => {
    answer({ success: false, code: 1, msg: '登录状态已失效' });
    const { api, log } = client();
    await expect(api.request('/api/thing')).rejects.toMatchObject({ errorCode: 1 });
    expect(log).toEqual(['removeToken', 'reload']);
  });

  it('msg of a success toasts on a mutation', async () => {
    answer({ success: true, code: 0, msg: '删除成功' });
    const { api, log } = client();
    await api.request('/api/thing', { method: 'DELETE' });
    expect(log).toEqual(['success: 删除成功']);
  });

  it('msg of a 401 and a 500 fill the warning and the error', async () => {
    answer({ success: false, code: 401, msg: 'token 失效' }, 401);
    const a = client();
    await expect(a.api.request('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(a.log).toContain('warning: 登录超时 token 失效');

    answer({ success: false, code: 500, msg: '数据库异常' }, 500);
    const b = client();
    await expect(b.api.request('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(b.log).toEqual(['error: 系统错误 数据库异常']);
  });

  it('errorCode and message win over code and msg when both are present', async () => {
    answer({ success: false, errorCode: 10003, code: 7, message: '账号已停用', msg: 'old' });
    const { api } = client();
    await expect(api.request('/api/thing')).rejects.toMatchObject({
      errorCode: 10003,
      message: '账号已停用',
    });
  });
});

describe('the request', () => {
  function captureHeaders() {
    const seen: { authorization: string | null; accept: string | null }[] = [];
    server.use(
      http.all(`${API}/api/thing`, ({ request }) => {
        seen.push({
          authorization: request.headers.get('authorization'),
          accept: request.headers.get('accept'),
        });
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    return seen;
  }

  it('carries Authorization: Bearer <token> when a token is stored', async () => {
    const seen = captureHeaders();
    await client('abc.def').api.request('/api/thing');
    await client('abc.def').api.request('/api/thing', { method: 'POST', body: { x: 1 } });
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer abc.def', 'Bearer abc.def']);
    expect(seen[0]?.accept).toBe('application/json');
  });

  it('carries no Authorization header without a token, or with an empty one', async () => {
    const seen = captureHeaders();
    await client(null).api.request('/api/thing');
    await client('').api.request('/api/thing');
    expect(seen.map((s) => s.authorization)).toEqual([null, null]);
  });

  it('reads the token at each call, so a sign-in or sign-out between calls is seen', async () => {
    const seen = captureHeaders();
    const { api, ports } = client(null);
    await api.request('/api/thing');
    ports.tokenStore.set('fresh');
    await api.request('/api/thing');
    ports.tokenStore.remove();
    await api.request('/api/thing');
    expect(seen.map((s) => s.authorization)).toEqual([null, 'Bearer fresh', null]);
  });

  it('uses the base URL, sends the query and a JSON body', async () => {
    let received: { url: string; method: string; contentType: string | null; body: unknown } | undefined;
    server.use(
      http.post('http://other.test/prefix/api/items', async ({ request }) => {
        received = {
          url: request.url,
          method: request.method,
          contentType: request.headers.get('content-type'),
          body: await request.json(),
        };
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    const { api: c } = client('t', { baseURL: 'http://other.test/prefix' });
    await c.request('/api/items', {
      method: 'POST',
      query: { page: 2, limit: 20, q: '合同', skip: undefined },
      body: { name: '门店' },
    });
    expect(received).toBeDefined();
    const url = new URL(received?.url ?? '');
    expect(url.origin + url.pathname).toBe('http://other.test/prefix/api/items');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '2', limit: '20', q: '合同' });
    expect(received?.method).toBe('POST');
    expect(received?.contentType).toBe('application/json');
    expect(received?.body).toEqual({ name: '门店' });
  });

  it('passes caller headers along (an API key for the CLI)', async () => {
    let apiKey: string | null = null;
    server.use(
      http.get(`${API}/api/thing`, ({ request }) => {
        apiKey = request.headers.get('x-api-key');
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    await client(null).api.request('/api/thing', { headers: { 'X-Api-Key': 'k-1' } });
    expect(apiKey).toBe('k-1');
  });

  it('uses a fetch implementation given in the options', async () => {
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return Response.json({ success: true, data: 42 });
    };
    const { api: c } = client(null, { fetch: fakeFetch });
    await expect(c.request('/api/answer')).resolves.toEqual({ success: true, data: 42 });
    expect(calls).toEqual([`${API}/api/answer`]);
  });
});

describe('timeout', () => {
  it('is 10 000 ms (spec §9)', () => {
    expect(HTTP_TIMEOUT_MS).toBe(10_000);
  });

  it('by default a request still waiting after 10 000 ms is aborted, and not a millisecond before', async () => {
    vi.useFakeTimers();
    server.use(
      http.get(`${API}/api/slow`, async () => {
        await delay(60_000);
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    const { api: c, log, token } = client();
    let settled = false;
    const pending = c.request('/api/slow').finally(() => {
      settled = true;
    });
    pending.catch(() => {});

    await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
    expect(settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    const error = await rejectionOf(pending);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(((error as Error).cause as Error).name).toBe('TimeoutError');
    // A timeout is a network failure: no effects.
    expect(log).toEqual([]);
    expect(token()).toBe('token-1');
  });

  it('an answer inside the timeout is not affected by it', async () => {
    vi.useFakeTimers();
    server.use(
      http.get(`${API}/api/slow`, async () => {
        await delay(HTTP_TIMEOUT_MS - 100);
        return HttpResponse.json({ success: true, data: 'late but fine' });
      }),
    );
    const pending = client().api.request('/api/slow');
    await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 100);
    await expect(pending).resolves.toEqual({ success: true, data: 'late but fine' });
  });

  it('timeoutMs overrides it', async () => {
    vi.useFakeTimers();
    server.use(
      http.get(`${API}/api/slow`, async () => {
        await delay(60_000);
        return HttpResponse.json({ success: true, data: null });
      }),
    );
    const pending = client('t', { timeoutMs: 50 }).api.request('/api/slow');
    pending.catch(() => {});
    await vi.advanceTimersByTimeAsync(50);
    const error = await rejectionOf(pending);
    expect(((error as Error).cause as Error).name).toBe('TimeoutError');
  });
});
