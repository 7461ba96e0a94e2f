/**
 * Admission (http/admission.ts): with REQUEST_CONCURRENCY=1 one admitted request at a time does
 * its work and the next waits its turn; routes that are not admitted (the public config) and
 * writes that wait on something outside the database (a third-party service's 测试, an outbound
 * call) go on meanwhile, and 服务器监控 shows who is in and who waits; a slot comes back however
 * its request ends — answered, failed, or its client gone while inside or while waiting.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Admission } from '../src/http/admission.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';
import { type LocalHttp, startLocalHttp } from './helpers/local-http.js';
import { type Api, adminApi } from './resources/helpers.js';

/** A route that takes a slot and holds it until the test lets it go (or fails when asked). */
function holder() {
  let open: () => void = () => undefined;
  let gate = Promise.resolve();
  const state = {
    entered: 0,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
  };
  return {
    state,
    register(app: TestApp['app']) {
      app.get<{ Querystring: { fail?: string } }>(
        '/api/test/held',
        { preHandler: app.admit },
        async (request) => {
          state.entered++;
          await gate;
          if (request.query.fail) throw new Error('held route failed on purpose');
          return { success: true, data: state.entered };
        },
      );
    },
  };
}

describe('the admission gate', () => {
  it('lets `limit` in and the rest in the order they came', async () => {
    const gate = new Admission(1);
    const order: number[] = [];
    expect(gate.enter()).toBeUndefined();
    const second = gate.enter()?.then(() => order.push(2));
    const third = gate.enter()?.then(() => order.push(3));
    expect(gate.load).toEqual({ active: 1, waiting: 2 });
    gate.leave();
    await second;
    gate.leave();
    await third;
    expect(order).toEqual([2, 3]);
    gate.leave();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('with limit 0 lets everyone in', () => {
    const gate = new Admission(0);
    for (let i = 0; i < 100; i++) expect(gate.enter()).toBeUndefined();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});

describe.each(DB_KINDS)('admission on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  const held = holder();
  let provider: LocalHttp;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      config: { requestConcurrency: 1 },
      beforeReady: (app) => held.register(app),
    });
    api = await adminApi(t);
    provider = await startLocalHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  afterAll(async () => {
    await provider?.close();
    await t?.close();
  });

  it('lets one admitted request in at a time; the public config and an outbound test go on meanwhile', async () => {
    const service = await api.post('/api/admin/thirdServices', {
      name: '短信服务',
      kind: 'sms',
      endpoint: `${provider.url}/ping`,
      appId: 'app-1',
      secret: 'sk-test-admission',
    });
    expect(service.status, service.text).toBe(200);

    held.state.hold();
    const first = t.app.inject({ method: 'GET', url: '/api/test/held' });
    await vi.waitFor(() => expect(held.state.entered).toBe(1));

    let listAnswered = false;
    const list = api.get('/api/admin/thirdServices').then((answer) => {
      listAnswered = true;
      return answer;
    });
    await vi.waitFor(() => expect(t.app.admission.load).toEqual({ active: 1, waiting: 1 }));

    // Not admitted: answered while the slot is taken.
    const config = await t.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(config.statusCode).toBe(200);
    const tested = await api.post(`/api/admin/thirdServices/${service.body.data.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.data.test.reachable).toBe(true);
    expect(listAnswered).toBe(false);
    // 服务器监控 is not gated either, and shows who is in and who waits.
    const monitor = await api.get('/api/admin/server-monitor');
    expect(monitor.status).toBe(200);
    expect(monitor.body.data.requests).toMatchObject({ inProgress: 1, waiting: 1, concurrencyLimit: 1 });

    held.state.release();
    expect((await first).statusCode).toBe(200);
    const answer = await list;
    expect(answer.status).toBe(200);
    expect(answer.body.data.results.map((r: { name: string }) => r.name)).toContain('短信服务');
    expect(t.app.admission.load).toEqual({ active: 0, waiting: 0 });
    expect((await api.get('/api/admin/server-monitor')).body.data.requests).toMatchObject({
      inProgress: 0,
      waiting: 0,
    });
  });

  it('gives the slot back when the request fails', async () => {
    held.state.hold();
    const failing = t.app.inject({ method: 'GET', url: '/api/test/held?fail=1' });
    await vi.waitFor(() => expect(t.app.admission.load.active).toBe(1));
    const next = api.get('/api/admin/thirdServices');
    held.state.release();
    expect((await failing).statusCode).toBe(500);
    expect((await next).status).toBe(200);
    expect(t.app.admission.load).toEqual({ active: 0, waiting: 0 });
  });

  it('gives the slot back when the client goes away, inside (even while its work is stuck) or waiting in line', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const gone = (path: string) => {
      const req = http.get(`${address}${path}`, { headers: { authorization: `Bearer ${api.token}` } });
      req.on('error', () => undefined);
      return req;
    };
    held.state.hold();
    const inside = gone('/api/test/held');
    await vi.waitFor(() => expect(t.app.admission.load.active).toBe(1));
    const waiting = gone('/api/admin/thirdServices');
    await vi.waitFor(() => expect(t.app.admission.load.waiting).toBe(1));
    waiting.destroy();
    inside.destroy();
    // The held route is still stuck: its slot came back with its client's going.
    await vi.waitFor(() => expect(t.app.admission.load).toEqual({ active: 0, waiting: 0 }));
    expect((await api.get('/api/admin/thirdServices')).status).toBe(200);
    held.state.release();
  });
});
