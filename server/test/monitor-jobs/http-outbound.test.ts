/**
 * HTTP(S) requests under the outbound policy, against local servers: loopback only with the
 * monitoring permission, every redirect hop checked again, the timeout, the body cap, TLS errors.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { permissionsOf } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeBody,
  HttpRedirectError,
  HttpTimeoutError,
  httpOutbound,
  type OutboundResolver,
} from '../../src/net/http-outbound.js';
import { OutboundRefusedError, outboundPolicyOf, resolveOutbound } from '../../src/net/outbound.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './tls-fixture.js';

const monitor = outboundPolicyOf(permissionsOf(['admin']));
const member = outboundPolicyOf([]);

let server: http.Server;
let tlsServer: https.Server;
let base: string;
let port: number;
let tlsPort: number;

/** `public.test` stands for a public web site that happens to be served on loopback. */
const fakePublicDns: OutboundResolver = async (host, policy, options) =>
  host === 'public.test'
    ? [{ host, address: '127.0.0.1', family: 4, kind: 'public' }]
    : resolveOutbound(host, policy, options);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/ok') return res.end('hello 万象');
    if (u.pathname === '/gbk') {
      res.setHeader('content-type', 'text/html; charset=gbk');
      return res.end(Buffer.from([0xc4, 0xe3, 0xba, 0xc3])); // 你好
    }
    if (u.pathname === '/echo') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        res.end(`${req.method} ${req.headers.host} ${req.headers['x-test'] ?? ''} ${body}`),
      );
      return;
    }
    if (u.pathname === '/redirect') {
      res.statusCode = Number(u.searchParams.get('code') ?? 302);
      res.setHeader('location', u.searchParams.get('to') ?? '/ok');
      return res.end();
    }
    if (u.pathname === '/loop') {
      res.statusCode = 302;
      res.setHeader('location', '/loop');
      return res.end();
    }
    if (u.pathname === '/slow') return void setTimeout(() => res.end('late'), 2000);
    if (u.pathname === '/big') return res.end(Buffer.alloc(3 * 1024 * 1024, 97));
    res.statusCode = 404;
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  tlsServer = https.createServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (_req, res) =>
    res.end('secure'),
  );
  await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
  tlsPort = (tlsServer.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  tlsServer.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => tlsServer.close(r));
});

describe('httpOutbound', () => {
  it('gets a page on loopback with the monitoring permission', async () => {
    const res = await httpOutbound({ url: `${base}/ok`, policy: monitor, timeoutMs: 2000 });
    expect(res.status).toBe(200);
    expect(decodeBody(res)).toBe('hello 万象');
  });

  it('refuses loopback without the monitoring permission, before connecting', async () => {
    await expect(httpOutbound({ url: `${base}/ok`, policy: member, timeoutMs: 2000 })).rejects.toThrow(
      `没有监控权限，不能连接本机地址（127.0.0.1）`,
    );
  });

  it('refuses a name that resolves to loopback (localhost)', async () => {
    await expect(
      httpOutbound({ url: `http://localhost:${port}/ok`, policy: member, timeoutMs: 2000 }),
    ).rejects.toThrow(/没有监控权限，不能连接本机地址（localhost → (127\.0\.0\.1|::1)）/);
  });

  it('checks every redirect hop: a public page cannot send the server to loopback', async () => {
    const to = encodeURIComponent(`${base}/ok`);
    const error = await httpOutbound({
      url: `http://public.test:${port}/redirect?to=${to}`,
      policy: member,
      timeoutMs: 2000,
      resolve: fakePublicDns,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toBe('没有监控权限，不能连接本机地址（127.0.0.1）');
    // A redirect that stays on the public site is followed.
    const res = await httpOutbound({
      url: `http://public.test:${port}/redirect?to=/ok`,
      policy: member,
      timeoutMs: 2000,
      resolve: fakePublicDns,
    });
    expect([res.status, res.redirects, res.url]).toEqual([200, 1, `http://public.test:${port}/ok`]);
  });

  it('keeps the Host header of the URL while connecting to the checked address', async () => {
    const res = await httpOutbound({
      url: `http://public.test:${port}/echo`,
      method: 'POST',
      headers: { 'x-test': 'yes' },
      body: 'payload',
      policy: member,
      timeoutMs: 2000,
      resolve: fakePublicDns,
    });
    expect(decodeBody(res)).toBe(`POST public.test:${port} yes payload`);
  });

  it('does not follow redirects when told not to; 303 continues as GET', async () => {
    const res = await httpOutbound({
      url: `${base}/redirect?code=301`,
      policy: monitor,
      timeoutMs: 2000,
      followRedirects: false,
    });
    expect(res.status).toBe(301);
    const after303 = await httpOutbound({
      url: `${base}/redirect?code=303&to=/echo`,
      method: 'POST',
      body: 'x',
      policy: monitor,
      timeoutMs: 2000,
    });
    expect(decodeBody(after303)).toMatch(/^GET /);
  });

  it('caps redirects', async () => {
    const error = await httpOutbound({ url: `${base}/loop`, policy: monitor, timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpRedirectError);
    expect((error as Error).message).toBe('跳转次数过多（超过 10 次）');
  });

  it('times out', async () => {
    const error = await httpOutbound({ url: `${base}/slow`, policy: monitor, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpTimeoutError);
    expect((error as Error).message).toBe('超时（300 毫秒）');
  });

  it('reads at most 1 MiB of the body', async () => {
    const res = await httpOutbound({ url: `${base}/big`, policy: monitor, timeoutMs: 5000 });
    expect(res.body.length).toBe(1024 * 1024);
    expect(res.truncated).toBe(true);
  });

  it('decodes the declared charset', async () => {
    const res = await httpOutbound({ url: `${base}/gbk`, policy: monitor, timeoutMs: 2000 });
    expect(decodeBody(res)).toBe('你好');
  });

  it('refuses a self-signed certificate unless TLS errors are ignored', async () => {
    const url = `https://127.0.0.1:${tlsPort}/`;
    await expect(httpOutbound({ url, policy: monitor, timeoutMs: 2000 })).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    const res = await httpOutbound({ url, policy: monitor, timeoutMs: 2000, ignoreTls: true });
    expect(decodeBody(res)).toBe('secure');
  });

  it('refuses a connection that is closed: ECONNREFUSED', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const p = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(
      httpOutbound({ url: `http://127.0.0.1:${p}/`, policy: monitor, timeoutMs: 2000 }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
