import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';
import { bearer, tokenOf } from './helpers/auth.js';

describe.each(DB_KINDS)('HTTP conventions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      config: { demoUsers: false },
      // A route that fails the way a bug would, registered for this test only.
      beforeReady: (app) => {
        app.get('/api/test/explode', async () => {
          throw new Error('kaboom: secret internal detail');
        });
      },
    });
  });
  afterAll(async () => t?.close());

  it('answers a JSON 404 envelope for an unknown /api path, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/no/such/route?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, errorCode: 404, message: '接口不存在' });
    }
  });

  it('answers the envelope when the router cannot read the path (issue 18 fuzz)', async () => {
    // Invalid percent-encoding, and bytes that are not UTF-8 (a surrogate): Fastify's English JSON before.
    for (const url of ['/api/admin/stores/%zz', '/api/admin/stores/%ED%A0%80', '/api/me/preferences/%']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        success: false,
        errorCode: 400,
        message: '请求地址无法解析（含无效的 % 编码）',
      });
    }
    const long = await t.app.inject({ method: 'DELETE', url: `/api/admin/stores/${'9'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ success: false, errorCode: 414, message: '请求地址中的参数过长' });
  });

  it('refuses a list filter whose name holds a line break with 422, not 500 (issue 18 fuzz)', async () => {
    const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/stores?a%0Ab=1',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().data.fields).toEqual({ 'a\nb': '不支持的筛选条件 a\nb' });
  });

  it('refuses U+0000 in a path, query or body with 422 and stores nothing (issue 18 fuzz: 500 on PostgreSQL)', async () => {
    const auth = bearer(await tokenOf(t.app, 'admin', ADMIN_PASSWORD));
    const message = '内容不能包含空字符（U+0000）';
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/me/preferences/nul',
      headers: auth,
      payload: { value: { 'k\u0000': 'a' } },
    });
    expect(put.statusCode).toBe(422);
    expect(put.json()).toMatchObject({ success: false, message });
    const prefs = await t.app.inject({ method: 'GET', url: '/api/me/preferences', headers: auth });
    expect(prefs.json().data).not.toHaveProperty('nul');
    for (const url of ['/api/admin/stores?q=a%00b', '/cloud/api/a%00b', '/api/login/qr/%00']) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().message).toBe(message);
    }
  });

  it('answers 4xx for an id beyond the database integer range (issue 18 fuzz: 500 on PostgreSQL)', async () => {
    const auth = bearer(await tokenOf(t.app, 'admin', ADMIN_PASSWORD));
    for (const [method, url] of [
      ['GET', '/api/admin/monitorJobs/2147483648/runs'],
      ['DELETE', '/api/me/jobs/2147483648'],
      ['GET', '/api/admin/exchangeCodes/2147483648'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: auth });
      // SQLite stores any 64-bit integer (no such row: 404); PostgreSQL's INTEGER refuses it (422).
      expect([404, 422], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
      expect(res.json().success).toBe(false);
    }
  });

  it('answers an unexpected fault with 500, a request id and no stack; the log has the stack', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/explode' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    expect(body).toEqual({
      success: false,
      errorCode: 500,
      message: `服务器开小差了，请稍后重试（请求编号 ${requestId}）`,
      data: { requestId },
    });
    expect(res.body).not.toContain('kaboom');
    expect(res.body).not.toContain('.ts:');
    const logged = t.logs.map((line) => JSON.parse(line)).find((entry) => entry.reqId === requestId);
    expect(logged?.err?.message).toBe('kaboom: secret internal detail');
    expect(logged?.err?.stack).toContain('http.test.ts');
  });

  it('puts a request id on every answer and keeps a well-formed incoming one', async () => {
    const own = await t.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const passed = await t.app.inject({
      method: 'GET',
      url: '/api/public/config',
      headers: { 'x-request-id': 'edge-42.abc' },
    });
    expect(passed.headers['x-request-id']).toBe('edge-42.abc');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers on success, 404 and 500 answers alike', async () => {
    for (const url of ['/api/public/config', '/api/nothing', '/api/test/explode', '/some/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("connect-src 'self' ws: wss:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('marks API answers Cache-Control: no-store', async () => {
    for (const url of ['/api/public/config', '/api/captcha/request', '/api/nothing']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['cache-control']).toBe('no-store');
    }
  });

  it('serves an OpenAPI 3 document that lists the auth routes with their schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('test-version');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/captcha/request',
        '/api/login/signin',
        '/api/user/current',
        '/api/login/signout',
        '/api/admin/server-monitor',
        '/api/public/config',
      ]),
    );
    const signin = doc.paths['/api/login/signin'].post;
    expect(signin.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
      'captchaId',
      'captchaCode',
    ]);
    expect(doc.paths['/api/user/current'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/test/explode']).toBeDefined();
    expect(doc.paths['/api/openapi.json']).toBeUndefined();
  });
});
