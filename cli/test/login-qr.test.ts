/**
 * `wanxiang login --qr` against the real built server: the CLI shows the confirm URL, another
 * signed-in user confirms through the API, and the CLI's login then works; an expired ticket
 * (a server started with a short WANXIANG_QR_TTL_MS) ends the command non-zero in Chinese.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer, TEST_CAPTCHA_CODE } from '../../testing/built-server';
import { ACCOUNTS, credentialsPath, readCredentials } from './support/accounts';
import { collect, runCli, startCli, tempConfigDir } from './support/cli';

async function apiToken(url: string, username: keyof typeof ACCOUNTS): Promise<string> {
  const captcha = (await (await fetch(`${url}/api/captcha/request`)).json()) as { captchaId: string };
  const res = await fetch(`${url}/api/login/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: ACCOUNTS[username],
      captchaId: captcha.captchaId,
      captchaCode: TEST_CAPTCHA_CODE,
    }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function act(url: string, ticket: string, action: 'scan' | 'confirm' | 'cancel', token: string) {
  const res = await fetch(`${url}/api/login/qr/${ticket}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { success: boolean; message?: string };
  if (!body.success) throw new Error(`${action} failed: ${body.message}`);
  return body;
}

const CONFIRM_URL = /(http:\/\/\S+\/scan_login\/confirm\/([A-Za-z0-9_-]+))/;

describe('wanxiang login --qr', () => {
  let server: BuiltServer;
  let editor: string;
  beforeAll(async () => {
    server = await startBuiltServer();
    editor = await apiToken(server.url, 'editor');
  });
  afterAll(async () => server?.stop());

  it('shows a QR code and the confirm URL; a confirmation in a browser signs the CLI in', async () => {
    const configDir = tempConfigDir();
    const child = startCli(['login', '--api-url', server.url, '--qr'], { configDir });
    const output = collect(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    const [, url, ticket] = await output.waitForStderr(CONFIRM_URL);
    expect(url).toBe(`${server.url}/scan_login/confirm/${ticket}`);
    // The QR code is drawn with block characters, on stderr.
    expect(output.stderr()).toMatch(/[▀▄█]{10,}/);
    expect(output.stderr()).toContain('确认登录');

    await act(server.url, ticket as string, 'scan', editor);
    await output.waitForStderr(/已扫码，请在浏览器中确认/);
    await act(server.url, ticket as string, 'confirm', editor);

    expect(await exited).toBe(0);
    expect(output.stderr()).toContain('登录成功');
    expect(output.stderr()).toMatch(/已登录 .*editor/);
    expect(output.stdout()).toBe('');
    const saved = readCredentials(configDir);
    expect(saved).toMatchObject({ apiUrl: server.url, username: 'editor' });
    // A token of its own, not the confirming browser's.
    expect(saved.token).not.toBe(editor);

    const whoami = await runCli(['whoami', '--json'], { configDir });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ username: 'editor' });
  });

  it('ends with exit 1 when the login is cancelled in the browser', async () => {
    const configDir = tempConfigDir();
    const child = startCli(['login', '--api-url', server.url, '--qr'], { configDir });
    const output = collect(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const [, , ticket] = await output.waitForStderr(CONFIRM_URL);
    await act(server.url, ticket as string, 'scan', editor);
    await act(server.url, ticket as string, 'cancel', editor);
    expect(await exited).toBe(1);
    expect(output.stderr()).toContain('已在浏览器中取消本次登录');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });

  it('Ctrl-C ends the wait with exit 130', async () => {
    const configDir = tempConfigDir();
    const child = startCli(['login', '--api-url', server.url, '--qr'], { configDir });
    const output = collect(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await output.waitForStderr(CONFIRM_URL);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(output.stderr()).toContain('已取消登录');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });
});

describe('wanxiang login --qr with a ticket that expires', () => {
  let server: BuiltServer;
  beforeAll(async () => {
    // Only for tests: tickets live 1.5 s instead of 2 minutes.
    server = await startBuiltServer({ WANXIANG_QR_TTL_MS: '1500' });
  });
  afterAll(async () => server?.stop());

  it('exits 1 with 二维码已过期 and a hint to run it again', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(['login', '--api-url', server.url, '--qr'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(CONFIRM_URL);
    expect(result.stderr).toContain('二维码已过期');
    expect(result.stderr).toContain('请重新运行 `wanxiang login`');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });
});
