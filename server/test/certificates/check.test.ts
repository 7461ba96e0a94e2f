/**
 * The TLS check against real TLS servers on loopback, with certificates made in the test:
 * each verdict, the chain as reported, STARTTLS on tiny SMTP/IMAP/POP3 responders, unreachable
 * targets, and the outbound policy (nothing connects for a user without monitor:write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCertificate } from '../../src/domain/certificates/check.js';
import { OutboundRefusedError } from '../../src/net/outbound.js';
import {
  closedPort,
  type Issued,
  makeCa,
  makeLeaf,
  silentServer,
  starttlsServer,
  type TestServer,
  tlsServer,
} from './pki.js';

const MONITOR = { mayReachPrivate: true };
const PUBLIC_ONLY = { mayReachPrivate: false };

let root: Issued;
let intermediate: Issued;
const servers: TestServer[] = [];

async function serve(server: Promise<TestServer>): Promise<TestServer> {
  const s = await server;
  servers.push(s);
  return s;
}

const check = (port: number, over: Partial<Parameters<typeof checkCertificate>[0]> = {}) =>
  checkCertificate({
    host: '127.0.0.1',
    port,
    servername: 'localhost',
    caPem: root.pem,
    policy: MONITOR,
    timeoutMs: 3000,
    now: Date.now(),
    notifyDays: [7, 14, 21],
    ...over,
  });

beforeAll(async () => {
  root = await makeCa('万象测试根 CA');
  intermediate = await makeCa('万象测试中间 CA', root);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('checkCertificate', () => {
  it('valid: trusted through the job CA bundle, the whole chain reported', async () => {
    const leaf = await makeLeaf({ issuer: intermediate, toDays: 90 });
    const server = await serve(tlsServer(leaf, [intermediate]));
    const result = await check(server.port);
    expect(result).toMatchObject({ verdict: 'ok', daysLeft: 89, host: '127.0.0.1', port: server.port });
    expect(result.reason).toBe('证书有效，剩余 89 天');
    const [first, second] = result.chain;
    expect(first).toMatchObject({
      subject: 'CN=localhost',
      issuer: 'CN=万象测试中间 CA',
      sans: ['localhost', '127.0.0.1'],
      keyType: 'EC',
      keySize: 256,
      selfSigned: false,
    });
    expect(first?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(first?.notAfter).toBe(leaf.cert.notAfter.toISOString());
    expect(second).toMatchObject({ subject: 'CN=万象测试中间 CA', issuer: 'CN=万象测试根 CA' });
    // Without the CA bundle, the same server is untrusted (the root is not a system root).
    const untrusted = await check(server.port, { caPem: null });
    expect(untrusted.verdict).toBe('untrusted');
    expect(untrusted.reason).toMatch(/^证书链不完整或颁发者不受信任|根证书是自签名/);
  });

  it('expiring in 5 days', async () => {
    const server = await serve(
      tlsServer(await makeLeaf({ issuer: intermediate, toDays: 5.5 }), [intermediate]),
    );
    const result = await check(server.port);
    expect(result).toMatchObject({ verdict: 'expiring', daysLeft: 5 });
    expect(result.reason).toContain('剩余 5 天');
  });

  it('expired', async () => {
    const server = await serve(
      tlsServer(await makeLeaf({ issuer: intermediate, fromDays: -100, toDays: -3 }), [intermediate]),
    );
    const result = await check(server.port);
    expect(result.verdict).toBe('expired');
    expect(result.daysLeft).toBeLessThan(0);
    expect(result.reason).toMatch(/^证书已于 .+ 过期$/);
  });

  it('self-signed', async () => {
    const server = await serve(tlsServer(await makeLeaf()));
    const result = await check(server.port);
    expect(result.verdict).toBe('untrusted');
    expect(result.reason).toMatch(/^自签名证书/);
    expect(result.chain).toHaveLength(1);
    expect(result.chain[0]?.selfSigned).toBe(true);
  });

  it('wrong host: mismatch', async () => {
    const server = await serve(tlsServer(await makeLeaf({ issuer: intermediate }), [intermediate]));
    const result = await check(server.port, { servername: 'shop.example.com' });
    expect(result.verdict).toBe('mismatch');
    expect(result.reason).toBe('证书与域名不匹配（shop.example.com）：证书中没有这个域名');
    expect(result.daysLeft).toBe(89);
  });

  it('incomplete chain: the intermediate not sent → untrusted', async () => {
    const server = await serve(tlsServer(await makeLeaf({ issuer: intermediate })));
    const result = await check(server.port);
    expect(result.verdict).toBe('untrusted');
    expect(result.reason).toMatch(/^证书链不完整或颁发者不受信任/);
    expect(result.chain).toHaveLength(1);
  });

  it.each(['smtp', 'imap', 'pop3'] as const)('STARTTLS over %s', async (protocol) => {
    const server = await serve(starttlsServer(protocol, await makeLeaf({ issuer: root, toDays: 40 })));
    const result = await check(server.port, { starttls: protocol });
    expect(result).toMatchObject({ verdict: 'ok', daysLeft: 39 });
    expect(result.chain[0]?.issuer).toBe('CN=万象测试根 CA');
  });

  it('STARTTLS refused by the server: unreachable with its answer', async () => {
    const server = await serve(starttlsServer('smtp', await makeLeaf({ issuer: root }), true));
    const result = await check(server.port, { starttls: 'smtp' });
    expect(result).toMatchObject({ verdict: 'unreachable', daysLeft: null, chain: [] });
    expect(result.reason).toBe('无法取得证书：SMTP 服务器不支持 STARTTLS：502 5.5.1 not supported');
  });

  it('unreachable: a closed port', async () => {
    const port = await closedPort();
    const result = await check(port);
    expect(result).toMatchObject({ verdict: 'unreachable', daysLeft: null, chain: [] });
    expect(result.reason).toBe(`无法取得证书：连接被拒绝（127.0.0.1:${port}），端口未开放`);
  });

  it('unreachable: no TLS answer within the timeout', async () => {
    const server = await serve(silentServer());
    const result = await check(server.port, { timeoutMs: 300 });
    expect(result.verdict).toBe('unreachable');
    expect(result.reason).toMatch(/TLS 握手超时（127\.0\.0\.1:\d+，300 毫秒内未完成）/);
  });

  it('the policy: without monitor:write loopback is refused and nothing connects', async () => {
    const server = await serve(tlsServer(await makeLeaf()));
    const attempt = check(server.port, { policy: PUBLIC_ONLY });
    await expect(attempt).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(attempt).rejects.toThrow('没有监控权限，不能连接本机地址（127.0.0.1）');
    await expect(check(server.port, { policy: PUBLIC_ONLY, host: 'localhost' })).rejects.toThrow(
      /没有监控权限，不能连接本机地址（localhost → /,
    );
    expect(server.connections).toBe(0);
  });
});
