/**
 * `wanxiang ssl check` and `wanxiang ssl jobs` run as cron runs them: the built CLI against the
 * built server, which makes real TLS handshakes with servers on loopback presenting certificates
 * made in the test. Asserts the printed verdict and chain and the exit codes 0 / 1 / 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  type Issued,
  makeCa,
  makeLeaf,
  starttlsServer,
  type TestServer,
  tlsServer,
} from '../../server/test/certificates/pki';
import type { BuiltServer } from '../../testing/built-server';
import { type SignedIn, signIn, startSignedIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let root: Issued;
let caFile: string;
let dir: string;
const servers: TestServer[] = [];

const serve = async (started: Promise<TestServer>) => {
  const s = await started;
  servers.push(s);
  return s;
};

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  root = await makeCa('CLI 测试根 CA');
  dir = mkdtempSync(join(tmpdir(), 'wanxiang-ssl-'));
  caFile = join(dir, 'root.pem');
  writeFileSync(caFile, root.pem);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  admin?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

const check = (port: number, ...extra: string[]) =>
  admin.wx(['ssl', 'check', `127.0.0.1:${port}`, '--servername', 'localhost', ...extra]);

describe('wanxiang ssl check', () => {
  it('ok: exit 0, the verdict and the chain', async () => {
    const leaf = await serve(tlsServer(await makeLeaf({ issuer: root, toDays: 90 })));
    const result = await check(leaf.port, '--ca', caFile);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('✓ 正常：证书有效，剩余 89 天');
    expect(lines[1]).toMatch(new RegExp(`^主机：127\\.0\\.0\\.1:${leaf.port}    剩余：89 天    检测时间：`));
    expect(result.stdout).toContain('证书链：');
    expect(result.stdout).toMatch(/#\s+使用者\s+颁发者\s+生效\s+到期\s+密钥/);
    expect(result.stdout).toMatch(
      /0\s+CN=localhost\s+CN=CLI 测试根 CA\s+\d{4}-\d{2}-\d{2}\s+\d{4}-\d{2}-\d{2}\s+EC 256/,
    );
    expect(result.stdout).toMatch(/1\s+CN=CLI 测试根 CA\s+CN=CLI 测试根 CA（自签名）/);
    expect(result.stdout).toContain('域名（SAN）：localhost, 127.0.0.1');
    expect(result.stdout).toMatch(/SHA-256：([0-9A-F]{2}:){31}[0-9A-F]{2}\n/);
  });

  it('expiring: exit 1', async () => {
    const leaf = await serve(tlsServer(await makeLeaf({ issuer: root, toDays: 5.5 })));
    const result = await check(leaf.port, '--ca', caFile);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toMatch(/^! 即将到期：证书即将到期：剩余 5 天（.+ 到期）$/);
  });

  it('expired, self-signed, unreachable: exit 2 with the reason', async () => {
    const expired = await serve(tlsServer(await makeLeaf({ issuer: root, fromDays: -60, toDays: -2 })));
    const old = await check(expired.port, '--ca', caFile);
    expect(old.code).toBe(2);
    expect(old.stdout.split('\n')[0]).toMatch(/^✗ 已过期：证书已于 .+ 过期$/);

    const self = await serve(tlsServer(await makeLeaf()));
    const untrusted = await check(self.port);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stdout.split('\n')[0]).toMatch(/^✗ 不受信任：自签名证书/);

    const port = await closedPort();
    const down = await check(port);
    expect(down.code).toBe(2);
    expect(down.stdout).toBe(
      `✗ 无法连接：无法取得证书：连接被拒绝（127.0.0.1:${port}），端口未开放\n` +
        `主机：127.0.0.1:${port}    剩余：-    检测时间：${down.stdout.split('检测时间：')[1]?.trim()}\n`,
    );
  });

  it('STARTTLS over SMTP, and --json for scripts', async () => {
    const mail = await serve(starttlsServer('smtp', await makeLeaf({ issuer: root, toDays: 40.5 })));
    const result = await check(mail.port, '--starttls', 'smtp', '--ca', caFile, '--json');
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ verdict: 'ok', daysLeft: 40, host: '127.0.0.1', port: mail.port });
    expect(parsed.chain[0].subject).toBe('CN=localhost');
  });

  it('a user without the monitoring permission: the server refuses loopback, exit 2, nothing connects', async () => {
    const target = await serve(tlsServer(await makeLeaf()));
    const guest = await signIn(server, 'guest');
    try {
      const result = await guest.wx(['ssl', 'check', `127.0.0.1:${target.port}`]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('检测失败：没有监控权限，不能连接本机地址（127.0.0.1）');
      expect(target.connections).toBe(0);
      // Listing every job needs the monitoring view: refused, exit 2 (not 1, which means expiring).
      const jobs = await guest.wx(['ssl', 'jobs']);
      expect(jobs.code).toBe(2);
      expect(jobs.stderr).toContain('检测失败：');
    } finally {
      guest.remove();
    }
  });

  it('usage errors: exit 2 before anything is asked', async () => {
    const bad = await admin.wx(['ssl', 'check', 'example.com:99999']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('无法识别的主机：example.com:99999');
    const noCa = await admin.wx(['ssl', 'check', 'example.com', '--ca', join(dir, 'missing.pem')]);
    expect(noCa.code).toBe(2);
    expect(noCa.stderr).toContain('无法读取根证书文件');
    const help = await admin.wx(['ssl', 'check', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ wanxiang ssl check mail.example.com:587 --starttls smtp');
  });
});

describe('wanxiang ssl jobs', () => {
  it('lists certificate jobs with their status; the exit code is the worst listed', async () => {
    const soon = await serve(tlsServer(await makeLeaf({ issuer: root, toDays: 10.5 })));
    const created = await admin.json<{ id: number }>([
      'create',
      'sslJobs',
      '--host',
      '127.0.0.1',
      '--port',
      String(soon.port),
      '--servername',
      'localhost',
      '--ca-bundle',
      root.pem,
      '--json',
    ]);
    const fresh = await admin.wx(['ssl', 'jobs']);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(
      new RegExp(`${created.id}\\s+127\\.0\\.0\\.1:${soon.port}\\s+待检测\\s+-\\s+-`),
    );

    await admin.ok(['action', 'sslJobs', String(created.id), 'checkNow']);
    const listed = await admin.wx(['ssl', 'jobs', '--status', 'expiring']);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(
      new RegExp(`${created.id}\\s+127\\.0\\.0\\.1:${soon.port}\\s+即将到期\\s+10\\s`),
    );

    const none = await admin.wx(['ssl', 'jobs', '--status', 'expired']);
    expect(none.code).toBe(0);
    expect(none.stderr).toBe('没有已过期的证书任务\n');

    const json = await admin.json<{ id: number; daysLeft: number }[]>([
      'ssl',
      'jobs',
      '--status',
      'ok',
      '--json',
    ]);
    expect(json).toEqual([]);
  });
});
