import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer } from '../../testing/built-server';
import {
  ACCOUNTS,
  credentialsPath,
  currentUserStatus,
  readCredentials,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
} from './support/accounts';
import { collect, runCli, startCli, tempConfigDir } from './support/cli';

let server: BuiltServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('wanxiang login (non-interactive)', () => {
  it('signs in, says who is signed in and saves the token in a 0600 file', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(
      [
        'login',
        '--api-url',
        server.url,
        '--username',
        'admin',
        '--password',
        TEST_ADMIN_PASSWORD,
        '--captcha-code',
        TEST_CAPTCHA_CODE,
      ],
      { configDir },
    );

    expect(result.code).toBe(0);
    expect(result.stderr).toContain('登录成功');
    expect(result.stderr).toMatch(/已登录 .*admin/);
    expect(result.stdout).toBe('');

    const path = credentialsPath(configDir);
    expect(existsSync(path)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const saved = readCredentials(configDir);
    expect(saved).toMatchObject({ apiUrl: server.url, username: 'admin' });
    expect(saved.token).toEqual(expect.any(String));
    expect(saved.expire).toBeGreaterThan(Date.now());
    // The saved token is the one the server handed out: it works.
    expect(await currentUserStatus(server.url, saved.token as string)).toBe(200);
  });

  it('takes the password from WANXIANG_PASSWORD', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(
      ['login', '--api-url', server.url, '--username', 'editor', '--captcha-code', TEST_CAPTCHA_CODE],
      { configDir, env: { WANXIANG_PASSWORD: ACCOUNTS.editor } },
    );
    expect(result.code).toBe(0);
    expect(readCredentials(configDir)).toMatchObject({ username: 'editor' });
  });

  it('fails with 登录失败 10001 on a wrong captcha and saves nothing', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(
      ['login', '--api-url', server.url, '--username', 'admin', '--captcha-code', 'wrong'],
      { configDir, env: { WANXIANG_PASSWORD: TEST_ADMIN_PASSWORD } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/登录失败 10001 \S+/);
    expect(result.stdout).toBe('');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });

  it('fails with 登录失败 10002 on a wrong password', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(
      ['login', '--api-url', server.url, '--username', 'operator', '--captcha-code', TEST_CAPTCHA_CODE],
      { configDir, env: { WANXIANG_PASSWORD: 'not-the-password' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/登录失败 10002 \S+/);
    expect(result.stderr).not.toContain('not-the-password');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });

  it('refuses to guess when stdin is not a terminal and answers are missing', async () => {
    const result = await runCli(['login', '--api-url', server.url, '--username', 'admin'], {
      configDir: tempConfigDir(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('非交互登录缺少');
    expect(result.stderr).toContain('--password');
    expect(result.stderr).toContain('--captcha-code');
  });
});

describe('wanxiang login (interactive)', () => {
  it('asks username, hidden password and captcha, shows the captcha file and retries after 登录失败', async () => {
    const configDir = tempConfigDir();
    const child = startCli(['login', '--api-url', server.url, '--interactive'], { configDir });
    const output = collect(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await output.waitForStderr(/用户名：/);
    child.stdin.write('operator\n');
    await output.waitForStderr(/密码：/);
    child.stdin.write(`${ACCOUNTS.operator}\n`);

    const [, firstPath] = await output.waitForStderr(/打开 (\S+captcha\.svg) 查看验证码/);
    expect(readFileSync(firstPath as string, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>$/);
    await output.waitForStderr(/验证码（直接回车换一张）：/);
    child.stdin.write('wrong\n');

    // The failure is shown, a fresh captcha is written and asked for again.
    await output.waitForStderr(/登录失败 10001[\s\S]*打开 \S+captcha\.svg 查看验证码[\s\S]*验证码（/);
    child.stdin.write(`${TEST_CAPTCHA_CODE}\n`);
    child.stdin.end();

    expect(await exited).toBe(0);
    expect(output.stderr()).toContain('登录成功');
    expect(output.stderr().match(/查看验证码/g)).toHaveLength(2);
    expect(output.stderr()).not.toContain(ACCOUNTS.operator);
    expect(output.stdout()).toBe('');
    expect(readCredentials(configDir)).toMatchObject({ apiUrl: server.url, username: 'operator' });
    // The captcha image was a temporary file of this command only.
    expect(existsSync(firstPath as string)).toBe(false);
  });

  it('asks for the username and password again after a wrong password', async () => {
    const configDir = tempConfigDir();
    const answers = ['guest', 'wrong-password', TEST_CAPTCHA_CODE, '', ACCOUNTS.guest, TEST_CAPTCHA_CODE];
    const result = await runCli(['login', '--api-url', server.url, '--interactive'], {
      configDir,
      input: `${answers.join('\n')}\n`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/登录失败 10002[\s\S]*用户名（guest）：/);
    expect(result.stderr).toContain('登录成功');
    expect(readCredentials(configDir)).toMatchObject({ username: 'guest' });
  });

  it('gives another image on an empty answer and stops after three failed attempts', async () => {
    const configDir = tempConfigDir();
    const answers = ['editor', ACCOUNTS.editor, '', 'wrong1', 'wrong2', 'wrong3', TEST_CAPTCHA_CODE];
    const result = await runCli(['login', '--api-url', server.url, '--interactive'], {
      configDir,
      input: `${answers.join('\n')}\n`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.match(/查看验证码/g)).toHaveLength(4);
    expect(result.stderr.match(/登录失败 10001/g)).toHaveLength(3);
    expect(result.stderr).toContain('已连续 3 次登录失败');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });

  it('ends non-zero when stdin closes before the questions are answered', async () => {
    const configDir = tempConfigDir();
    const result = await runCli(['login', '--api-url', server.url, '--interactive'], {
      configDir,
      input: 'admin\n',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('标准输入已结束');
    expect(existsSync(credentialsPath(configDir))).toBe(false);
  });
});
