/**
 * Third-party services: 测试 calls the endpoint through the outbound policy and reports
 * {reachable, httpStatus, latencyMs, error} in Chinese — against a local HTTP server with the
 * monitoring permission (the admin's), refused for a caller without it; the secret appears in no
 * answer, list, export or audit entry.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEndpoint } from '../../src/domain/third-services/probe.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { type LocalHttp, startLocalHttp } from '../helpers/local-http.js';
import { type Api, adminApi } from '../resources/helpers.js';

const BASE = '/api/admin/thirdServices';
const SECRET = 'sk-live-Wx9f3Kq7ZpL2mN8vR4tY';

describe.each(DB_KINDS)('third-party services on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let provider: LocalHttp;
  let providerUrl: string;
  const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    provider = await startLocalHttp((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    providerUrl = provider.url;
  });
  afterAll(async () => {
    await provider?.close();
    await t?.close();
  });

  const create = async (endpoint: string) => {
    const res = await api.post(BASE, {
      name: '短信网关',
      kind: 'sms',
      endpoint,
      appId: 'app-1',
      secret: SECRET,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  it('测试 reaches a local endpoint for the admin (monitor:write) and reports status and latency', async () => {
    const row = await create(`${providerUrl}/v1/ping`);
    const res = await api.post(`${BASE}/${row.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.test).toEqual({
      reachable: true,
      httpStatus: 200,
      latencyMs: expect.any(Number),
      error: null,
    });
    expect(res.body.message).toMatch(/^连接成功：HTTP 200，耗时 \d+ 毫秒$/);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/v1/ping' });
    // The credentials are not sent to the endpoint.
    expect(JSON.stringify(seen.at(-1)?.headers)).not.toContain(SECRET);
    expect(res.text).not.toContain(SECRET);

    // Any HTTP answer means reachable; the status says the rest.
    const missing = await create(`${providerUrl}/missing`);
    const answer = (await api.post(`${BASE}/${missing.id}/test`)).body;
    expect(answer.data.test).toMatchObject({ reachable: true, httpStatus: 404, error: null });
  });

  it('reports a closed port in Chinese, as unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const row = await create(`http://127.0.0.1:${port}/`);
    const res = await api.post(`${BASE}/${row.id}/test`);
    expect(res.body.data.test).toMatchObject({
      reachable: false,
      httpStatus: null,
      error: '连接被拒绝（端口没有服务在监听）',
    });
    expect(res.body.message).toBe('无法连接：连接被拒绝（端口没有服务在监听）');
  });

  it('without monitor:write a private address is refused before connecting; others cannot test', async () => {
    const before = seen.length;
    const refused = await probeEndpoint(`${providerUrl}/v1/ping`, { mayReachPrivate: false });
    expect(refused).toMatchObject({
      reachable: false,
      httpStatus: null,
      error: expect.stringMatching(/^没有监控权限，不能连接.+地址（127\.0\.0\.1）$/),
    });
    expect(seen.length).toBe(before);

    // No role may write thirdServices without monitor:write today; one without system:write
    // (the editor) may not test at all.
    const row = await create(`${providerUrl}/v1/ping`);
    const editor = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/${row.id}/test`,
      headers: bearer(editor),
    });
    expect(res.statusCode).toBe(403);
    expect(seen.length).toBe(before);
  });

  it('the secret is in no answer, list, export or audit entry', async () => {
    const row = await create(`${providerUrl}/v1/ping`);
    const updated = await api.patch(
      `${BASE}/${row.id}`,
      { secret: `${SECRET}-rotated` },
      { 'if-match': row.updatedAt },
    );
    await api.post(`${BASE}/${row.id}/test`);
    const texts = [
      JSON.stringify(row),
      updated.text,
      (await api.get(`${BASE}/${row.id}`)).text,
      (await api.get(BASE)).text,
      (await api.get(`${BASE}?q=短信`)).text,
      (await api.get(`${BASE}/export?format=csv`)).text,
      (await api.get(`${BASE}/export?format=ndjson`)).text,
      (await api.get(`/api/admin/auditLogs?resource=thirdServices&limit=100`)).text,
      (await api.get('/api/admin/auditLogs/export?format=ndjson')).text,
    ];
    expect(row.secret).toBe('******');
    for (const text of texts) {
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toContain(SECRET);
    }
    // The audit entries are there (so the check above looked at them).
    expect(texts[7]).toContain('thirdServices.test');
  });
});
