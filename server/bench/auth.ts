/**
 * Auth and start-up figures of BENCHMARKS.md, measured on the built server (dist/main.js) as an
 * operator would run it, each printed beside its bar:
 *   - cold start to first answered request ≤ 2 s (empty database, and again on an existing one)
 *   - idle RSS ≤ 150 MB
 *   - sign-in median ≤ 80 ms (argon2id with the OWASP parameters, over HTTP)
 *
 * Run: `npm run build -w @wanxiang/server && npx tsx server/bench/auth.ts`. Exits non-zero when
 * a bar is missed. `runAuthBench()` is exported for the root bench runner.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../../testing/built-server';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const ADMIN_PASSWORD = 'bench-admin-password';
const CAPTCHA_CODE = 'bench';
const SIGNINS = 30;
const WARMUP = 3;
const RESTARTS = 3;

export interface BenchFigure {
  name: string;
  value: number;
  unit: 'ms' | 'MB';
  bar: number;
  ok: boolean;
}

interface Running {
  child: ChildProcess;
  base: string;
  startMs: number;
  output: string[];
}

async function start(dataDir: string): Promise<Running> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const t0 = performance.now();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WANXIANG_ADMIN_PASSWORD: ADMIN_PASSWORD,
      WANXIANG_CAPTCHA_TEST_CODE: CAPTCHA_CODE,
      WANXIANG_DEMO: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output.join('')}`))),
  );
  exited.catch(() => undefined);
  // Poll until the first request is answered; a refused connection means "not yet".
  for (;;) {
    if (performance.now() - t0 > 30_000) throw new Error(`no answer within 30 s:\n${output.join('')}`);
    const answered = await Promise.race([
      fetch(`${base}/api/public/config`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (answered) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return { child, base, startMs: performance.now() - t0, output };
}

async function stop(running: Running): Promise<void> {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((r) => running.child.once('exit', r));
  running.child.kill('SIGTERM');
  await exited;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function signInOnce(base: string): Promise<number> {
  const captcha = (await (await fetch(`${base}/api/captcha/request`)).json()) as { captchaId: string };
  const t0 = performance.now();
  const res = await fetch(`${base}/api/login/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      password: ADMIN_PASSWORD,
      captchaId: captcha.captchaId,
      captchaCode: CAPTCHA_CODE,
    }),
  });
  const body = (await res.json()) as { success: boolean };
  const elapsed = performance.now() - t0;
  if (!body.success) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return elapsed;
}

const figure = (name: string, value: number, unit: BenchFigure['unit'], bar: number): BenchFigure => ({
  name,
  value,
  unit,
  bar,
  ok: value <= bar,
});

export async function runAuthBench(): Promise<BenchFigure[]> {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run \`npm run build -w @wanxiang/server\` first`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-'));
  const figures: BenchFigure[] = [];
  try {
    const first = await start(dataDir);
    figures.push(figure('cold start, empty database → first answer', first.startMs, 'ms', 2000));
    await stop(first);

    // Restarts are what operators do most; one start is noisy on a small machine, so take the median.
    const restarts: number[] = [];
    for (let i = 0; i < RESTARTS - 1; i++) {
      const restart = await start(dataDir);
      restarts.push(restart.startMs);
      await stop(restart);
    }
    const again = await start(dataDir);
    restarts.push(again.startMs);
    figures.push(
      figure(
        `cold start, existing database → first answer (median of ${RESTARTS})`,
        median(restarts),
        'ms',
        2000,
      ),
    );
    // Idle: let start-up garbage settle, then read the resident set.
    await new Promise((r) => setTimeout(r, 1000));
    figures.push(figure('idle RSS after start', rssMb(again.child.pid as number), 'MB', 150));

    for (let i = 0; i < WARMUP; i++) await signInOnce(again.base);
    const times: number[] = [];
    for (let i = 0; i < SIGNINS; i++) times.push(await signInOnce(again.base));
    figures.push(
      figure(`sign-in median over ${SIGNINS} (argon2id m=19456 t=2 p=1)`, median(times), 'ms', 80),
    );
    await stop(again);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

export function formatFigures(figures: BenchFigure[]): string {
  const width = Math.max(...figures.map((f) => f.name.length));
  return figures
    .map((f) => {
      const value = `${f.value.toFixed(f.unit === 'ms' && f.value < 100 ? 1 : 0)} ${f.unit}`;
      return `  ${f.name.padEnd(width)}  ${value.padStart(9)}   bar ≤ ${f.bar} ${f.unit}   ${f.ok ? 'ok' : 'MISSED'}`;
    })
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAuthBench().then(
    (figures) => {
      process.stdout.write(
        `server: auth and start-up (built dist/main.js, SQLite, ${os.cpus().length} cores)\n`,
      );
      process.stdout.write(`${formatFigures(figures)}\n`);
      if (figures.some((f) => !f.ok)) process.exitCode = 1;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
