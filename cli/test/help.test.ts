/** `--help`, `--version` and usage errors: no server needed. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from './support/cli';

const run = (...args: string[]) => runCli(args, { configDir: tempConfigDir() });

describe('wanxiang --help', () => {
  it('lists the commands, the environment and the exit codes, on stdout', async () => {
    const result = await run('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('用法： wanxiang [选项] [命令]');
    for (const command of [
      'login',
      'whoami',
      'logout',
      'resources',
      'list',
      'get',
      'create',
      'update',
      'delete',
      'action',
      'export',
      'orders',
      'coupons',
    ])
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(result.stdout).toContain('WANXIANG_API_URL');
    expect(result.stdout).toContain('WANXIANG_CONFIG_DIR');
    expect(result.stdout).toMatch(/示例：\n {2}\$ wanxiang /);
    expect(result.stdout).toContain('4 需要登录');
  });

  it.each(['login', 'whoami', 'logout'])('%s --help shows its options and an example', async (command) => {
    const result = await run(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`用法： wanxiang ${command}`);
    expect(result.stdout).toContain('--api-url <url>');
    expect(result.stdout).toMatch(new RegExp(`示例：\\n {2}\\$ wanxiang ${command}`));
    // `help <command>` says the same.
    expect((await run('help', command)).stdout).toBe(result.stdout);
  });

  it('documents every login option', async () => {
    const { stdout } = await run('login', '--help');
    for (const flag of [
      '--username',
      '--password',
      'WANXIANG_PASSWORD',
      '--captcha-code',
      '--interactive',
      '--no-interactive',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await run('--version');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});

describe('usage errors', () => {
  it('an unknown option is reported in Chinese with exit 2', async () => {
    const result = await run('whoami', '--jsno');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('未知选项 --jsno');
    expect(result.stderr).toContain('是不是 --json');
    expect(result.stdout).toBe('');
  });

  it('an unknown command is reported in Chinese with exit 2', async () => {
    const result = await run('whoamii');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('未知命令 whoamii');
  });

  it('an API URL without http(s) is refused with the right spelling', async () => {
    const result = await run('whoami', '--api-url', 'localhost:8080');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('无效的 API 地址「localhost:8080」');
    expect(result.stderr).toContain('http://localhost:8080');
  });
});

describe('the command npm links', () => {
  it('is the committed launcher, which exists before any build and runs the built CLI', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const launcher = fileURLToPath(new URL(`../${pkg.bin.wanxiang}`, import.meta.url));
    expect(launcher).toMatch(/cli\/bin\/wanxiang\.js$/);
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [launcher, '--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});
