/** whoami and logout against the real server, and what happens when the session ends. */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { messages } from '@wanxiang/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer } from '../../testing/built-server';
import { displayWidth } from '../src/io/text';
import { credentialsPath, currentUserStatus, login, readCredentials } from './support/accounts';
import { runCli, tempConfigDir } from './support/cli';

let server: BuiltServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.stop();
});

/** An address where nothing listens: a port the system just handed out and took back. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('wanxiang whoami', () => {
  it('shows the signed-in user as a block, on the server saved at login', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'operator');

    // No --api-url: the server of the last login is the default.
    const result = await runCli(['whoami'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    const row = (label: string) =>
      lines
        .find((line) => line.startsWith(`${label} `))
        ?.slice(label.length)
        .trim();
    expect(row('服务')).toBe(server.url);
    expect(row('用户名')).toBe('operator');
    expect(row('角色')).toBe('operator（运营）');
    expect(row('权限')?.split(', ')).toEqual(
      expect.arrayContaining(['oms:read', 'oms:write', 'finance:read']),
    );
    expect(row('登录有效期至')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // Values start in one terminal column, whatever the width of the Chinese label.
    const valueColumn = (line: string) => {
      const [, label = '', gap = ''] = /^(\S+)(\s+)/.exec(line) ?? [];
      return displayWidth(label) + gap.length;
    };
    expect(new Set(lines.map(valueColumn)).size).toBe(1);
  });

  it('prints the user as JSON on stdout with --json', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'editor');

    const result = await runCli(['whoami', '--json'], { configDir });
    expect(result.code).toBe(0);
    const user = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(user).toMatchObject({ username: 'editor', roles: ['editor'] });
    expect(user.id).toEqual(expect.any(Number));
    expect(user.permissions).toEqual(expect.arrayContaining(['blog:read', 'blog:write']));
    expect(user.permissions).not.toContain('system:read');
  });

  it('shows a user without roles, with （无）', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'guest');
    const result = await runCli(['whoami'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/角色\s+（无）/);
  });

  it('says so and exits 4 when nobody is signed in', async () => {
    const result = await runCli(['whoami', '--api-url', server.url], { configDir: tempConfigDir() });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`尚未登录 ${server.url}`);
    expect(result.stderr).toContain('wanxiang login');
  });

  it('never sends the saved token to another server', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'operator');
    // Were the token sent, this would be a connection failure; it is "not signed in there".
    const result = await runCli(['whoami', '--api-url', await closedPortUrl()], { configDir });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('尚未登录');
  });
});

describe('wanxiang logout', () => {
  it('revokes the token on the server, forgets it, and whoami then fails', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'operator');
    const token = readCredentials(configDir).token as string;

    const result = await runCli(['logout'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('已退出登录');
    expect(await currentUserStatus(server.url, token)).toBe(401);
    // The server address stays the default; the token is gone.
    expect(readCredentials(configDir)).toEqual({ apiUrl: server.url });

    const whoami = await runCli(['whoami'], { configDir });
    expect(whoami.code).toBe(4);
    expect(whoami.stderr).toContain('尚未登录');
  });

  it('exits 4 when nobody is signed in', async () => {
    const result = await runCli(['logout', '--api-url', server.url], { configDir: tempConfigDir() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('尚未登录');
  });
});

describe('when the session ends on the server', () => {
  it('reports 登录超时 with the fix, exits 4 and removes the revoked token', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'editor');
    const token = readCredentials(configDir).token as string;
    // Signed out elsewhere (another terminal, the browser): the token is revoked server-side.
    const signout = await fetch(`${server.url}/api/login/signout`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(signout.status).toBe(200);

    const result = await runCli(['whoami'], { configDir });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('登录超时');
    expect(result.stderr).toContain('wanxiang login');
    expect(readCredentials(configDir).token).toBeUndefined();
  });

  it('an administrator revoking the session (errorCode 1) ends it with the reason, exit 4', async () => {
    const configDir = tempConfigDir();
    await login(server.url, configDir, 'operator');
    revokeAsAdministrator(server, readCredentials(configDir).token as string);

    const result = await runCli(['whoami'], { configDir });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(messages.sessionRevoked);
    expect(result.stderr).toContain('wanxiang login');
    expect(readCredentials(configDir).token).toBeUndefined();
  });
});

/**
 * What the server does when an administrator ends a session. There is no admin route for it
 * yet, so this writes the server's own revocation marker into its database (the real server
 * process then answers errorCode 1). Replace with the admin API once it exists.
 */
function revokeAsAdministrator(built: BuiltServer, token: string): void {
  const db = new Database(join(built.dataDir, 'wanxiang.db'));
  try {
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const revoked = db
      .prepare("update sessions set revoked_at = ?, revoked_reason = 'revoked' where token_hash = ?")
      .run(Date.now(), tokenHash);
    expect(revoked.changes).toBe(1);
  } finally {
    db.close();
  }
}

describe('when the server cannot be reached', () => {
  it('login names the address and the fix, and exits 1', async () => {
    const url = await closedPortUrl();
    const result = await runCli(['login', '--api-url', url, '--username', 'admin', '--captcha-code', 'x'], {
      configDir: tempConfigDir(),
      env: { WANXIANG_PASSWORD: 'x' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`无法连接万象服务 ${url}（连接被拒绝）`);
    expect(result.stderr).toContain('--api-url');
  });

  it('whoami with a saved login names the address, exits 1 and keeps the token', async () => {
    const configDir = tempConfigDir();
    const url = await closedPortUrl();
    writeFileSync(credentialsPath(configDir), JSON.stringify({ apiUrl: url, token: 'x'.repeat(43) }), {
      mode: 0o600,
    });

    const result = await runCli(['whoami'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`无法连接万象服务 ${url}`);
    expect(result.stderr).toContain('WANXIANG_API_URL');
    expect(readCredentials(configDir).token).toBe('x'.repeat(43));
  });
});
