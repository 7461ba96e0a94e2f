/** The check kinds against local servers, with the messages a user reads. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { permissionsOf } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserChecker, CHROMIUM_MISSING, chromiumPath } from '../../src/domain/monitor-jobs/browser.js';
import { type JobSpec, runCheck } from '../../src/domain/monitor-jobs/checks.js';
import { outboundPolicyOf } from '../../src/net/outbound.js';

const monitor = { policy: outboundPolicyOf(permissionsOf(['admin'])) };
const member = { policy: outboundPolicyOf([]) };

let server: http.Server;
let base: string;
let closedPort: number;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/ok') return res.end('<html><body>服务正常 all good</body></html>');
    if (req.url === '/down') {
      res.statusCode = 503;
      return res.end('maintenance');
    }
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 1500);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const job = (over: Partial<JobSpec>): JobSpec => ({
  kind: 'http',
  url: `${base}/ok`,
  timeoutMs: 2000,
  ...over,
});

describe('http and keyword checks', () => {
  it('up on an accepted status, with the latency', async () => {
    const r = await runCheck(job({}), monitor);
    expect(r).toMatchObject({ ok: true, httpStatus: 200, message: '状态码 200' });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
  });
  it('down on a status outside the accepted ranges', async () => {
    expect(await runCheck(job({ url: `${base}/down` }), monitor)).toMatchObject({
      ok: false,
      httpStatus: 503,
      message: '状态码 503 不在 200-299 内',
    });
    expect(
      await runCheck(job({ url: `${base}/down`, acceptedStatus: '200-299,503' }), monitor),
    ).toMatchObject({
      ok: true,
    });
  });
  it('keyword present, absent, inverted', async () => {
    expect(await runCheck(job({ kind: 'keyword', keyword: '服务正常' }), monitor)).toMatchObject({
      ok: true,
      message: '找到关键词「服务正常」',
    });
    expect(await runCheck(job({ kind: 'keyword', keyword: '错误' }), monitor)).toMatchObject({
      ok: false,
      message: '未找到关键词「错误」',
    });
    expect(
      await runCheck(job({ kind: 'keyword', keyword: '错误', invertKeyword: true }), monitor),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await runCheck(job({ kind: 'keyword', keyword: '服务正常', invertKeyword: true }), monitor),
    ).toMatchObject({ ok: false, message: '找到了关键词「服务正常」（应当不出现）' });
  });
  it('timeout and refused connection', async () => {
    expect(await runCheck(job({ url: `${base}/slow`, timeoutMs: 500 }), monitor)).toMatchObject({
      ok: false,
      latencyMs: null,
      message: '超时（500 毫秒）',
    });
    expect(await runCheck(job({ url: `http://127.0.0.1:${closedPort}/` }), monitor)).toMatchObject({
      ok: false,
      message: '连接被拒绝',
    });
  });
  it('loopback refused without the monitoring permission', async () => {
    expect(await runCheck(job({}), member)).toMatchObject({
      ok: false,
      message: '没有监控权限，不能连接本机地址（127.0.0.1）',
    });
  });
});

describe('tcp checks', () => {
  it('up when the port answers, down when it refuses', async () => {
    const port = (server.address() as AddressInfo).port;
    expect(await runCheck(job({ kind: 'tcp', url: `tcp://127.0.0.1:${port}` }), monitor)).toMatchObject({
      ok: true,
      message: `端口 ${port} 可连接`,
    });
    expect(await runCheck(job({ kind: 'tcp', url: `tcp://127.0.0.1:${closedPort}` }), monitor)).toMatchObject(
      {
        ok: false,
        message: '连接被拒绝',
      },
    );
    expect(await runCheck(job({ kind: 'tcp', url: `tcp://localhost:${port}` }), member)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^没有监控权限，不能连接本机地址/),
    });
  });
});

describe('browser checks', () => {
  it('says why it cannot run without Chromium', async () => {
    const checker = new BrowserChecker({
      executablePath: null,
      maxPages: 1,
      storeScreenshot: async () => 'x',
    });
    expect(await checker.check(job({ kind: 'browser' }), monitor)).toMatchObject({
      ok: false,
      message: CHROMIUM_MISSING,
    });
  });

  const executablePath = chromiumPath();
  it.skipIf(!executablePath)(
    'loads a page, keeps a screenshot, refuses what the policy refuses',
    { timeout: 60_000 },
    async () => {
      const shots: Buffer[] = [];
      const checker = new BrowserChecker({
        executablePath,
        maxPages: 1,
        storeScreenshot: async (jpeg) => {
          shots.push(jpeg);
          return `/api/files/shot${shots.length}.jpg`;
        },
      });
      try {
        const up = await checker.check(job({ kind: 'browser', timeoutMs: 20_000 }), monitor);
        expect(up).toMatchObject({ ok: true, httpStatus: 200, screenshot: '/api/files/shot1.jpg' });
        expect(shots[0]?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // a JPEG
        const down = await checker.check(
          job({ kind: 'browser', url: `${base}/down`, timeoutMs: 20_000 }),
          monitor,
        );
        expect(down).toMatchObject({ ok: false, httpStatus: 503, message: '状态码 503 不在 200-299 内' });
        // A member's job: the page itself on loopback is refused before any request reaches it.
        seen.length = 0;
        const refused = await checker.check(
          job({ kind: 'browser', url: `${base}/ok`, timeoutMs: 20_000 }),
          member,
        );
        expect(refused).toMatchObject({ ok: false, message: '没有监控权限，不能连接本机地址（127.0.0.1）' });
        expect(seen).toEqual([]);
      } finally {
        await checker.close();
      }
    },
  );
});
