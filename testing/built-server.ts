/**
 * Starts the built product (`server/dist/main.js`, serving `ui/dist`) as a real process on a free
 * port with its own temporary data directory — what end-to-end and CLI tests run against.
 * Build first (`npm run build`); `npm test` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_ENTRY = join(REPO_ROOT, 'server/dist/main.js');

export const TEST_ADMIN_PASSWORD = 'Admin#Test-2024';
export const TEST_CAPTCHA_CODE = 'test';
/** The demo accounts' password (WANXIANG_DEMO_PASSWORD); without it each would be generated. */
export const TEST_DEMO_PASSWORD = 'Demo#Test-2024';

export interface BuiltServer {
  url: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
  /** `kill -9`: the process ends at once, mid-write; the data directory stays (crash tests). */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Start on this data directory (a restart after a crash); it is then not removed on stop. */
  dataDir?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, log: () => string): Promise<void> {
  // A guard against a server that never answers, not a speed bar: on a 2-core machine running the
  // whole suite beside a benchmark, a start (migrations, demo content) has taken over 30 s.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/public/config`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer within 60 s:\n${log()}`);
}

export async function startBuiltServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<BuiltServer> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first`);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wanxiang-test-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WANXIANG_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      WANXIANG_CAPTCHA_TEST_CODE: TEST_CAPTCHA_CODE,
      WANXIANG_DEMO_PASSWORD: TEST_DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      // Demo accounts, no demo content: tests create the rows they assert on. Pass
      // WANXIANG_DEMO=on to get the full demo (end-to-end screens that show demo rows).
      WANXIANG_DEMO: 'users',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  await waitUntilAnswering(url, child, () => log);
  return {
    url,
    dataDir,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
