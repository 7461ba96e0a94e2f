/**
 * `wanxiang orders export` over N orders (default 100 000; `EXPORT_ROWS=1000000` for the bar of
 * BENCHMARKS.md): time, rows/s, peak RSS of the CLI and of the server, and another client's list
 * latency while the export runs. Orders are written straight into the built server's SQLite file
 * through the server's storage conventions (as the CLI tests do; orders have no create route).
 *
 *   npm run build && node --import tsx cli/bench/export.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltServer, TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE } from '../../testing/built-server';
import { insertOrders, type OrderSeed } from '../test/support/orders';

const ROWS = Number(process.env.EXPORT_ROWS ?? 100_000);
const CLI = fileURLToPath(new URL('../dist/wanxiang.js', import.meta.url));
const BAR = { seconds: 10, rssMb: 200, listP99Ms: 50, rows: 1_000_000 };

const work = mkdtempSync(join(tmpdir(), 'wanxiang-export-bench-'));
const env = { PATH: process.env.PATH ?? '', HOME: work, WANXIANG_CONFIG_DIR: work };

function run(args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, done, out: () => stdout, err: () => stderr };
}

/** Peak resident set (VmHWM) of a live process, in MB; null off Linux. */
function peakRssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

function watchPeak(child: ChildProcess): () => number | null {
  let peak: number | null = null;
  const timer = setInterval(() => {
    peak = peakRssMb(child.pid) ?? peak;
  }, 50);
  child.on('exit', () => clearInterval(timer));
  return () => peak;
}

const server = await startBuiltServer();
try {
  const login = run(
    ['login', '--api-url', server.url, '--username', 'admin', '--captcha-code', TEST_CAPTCHA_CODE],
    {
      WANXIANG_PASSWORD: TEST_ADMIN_PASSWORD,
    },
  );
  if ((await login.done) !== 0) throw new Error(login.err());
  const store = run([
    'create',
    'stores',
    '--name',
    '基准门店',
    '--phone',
    '010-12345678',
    '--address',
    '基准路 1 号',
    '--json',
  ]);
  if ((await store.done) !== 0) throw new Error(store.err());
  const storeId = (JSON.parse(store.out()) as { id: number }).id;

  const statuses = ['paid', 'accepted', 'preparing', 'completed', 'cancelled'];
  const start = Date.parse('2024-01-01T00:00:00+08:00');
  let t = performance.now();
  for (let done = 0; done < ROWS; done += 50_000) {
    const batch: OrderSeed[] = Array.from({ length: Math.min(50_000, ROWS - done) }, (_, j) => {
      const i = done + j;
      return {
        orderNo: `BENCH${String(i).padStart(8, '0')}`,
        storeId,
        status: statuses[i % statuses.length] as string,
        createdAt: new Date(start + i * 30_000),
        payableFen: 1000 + (i % 9000),
        address: `北京市朝阳区建国路 ${i % 500} 号`,
      };
    });
    insertOrders(server.dataDir, batch);
  }
  console.log(
    `inserted ${ROWS.toLocaleString('en-US')} orders in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const token = (JSON.parse(readFileSync(join(work, 'credentials.json'), 'utf8')) as { token: string }).token;

  for (const format of ['csv', 'ndjson'] as const) {
    const file = join(work, `orders.${format}`);
    // Another client lists orders the whole time, one request after the other.
    const latencies: number[] = [];
    let exporting = true;
    const lister = (async () => {
      while (exporting) {
        const s = performance.now();
        const res = await fetch(`${server.url}/api/admin/orders?status=paid&limit=20`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - s);
      }
    })();

    t = performance.now();
    const exported = run(['orders', 'export', '--format', format, '--output', file]);
    const cliPeak = watchPeak(exported.child);
    const code = await exported.done;
    const seconds = (performance.now() - t) / 1000;
    exporting = false;
    await lister;
    if (code !== 0) throw new Error(exported.err());

    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
    const mb = statSync(file).size / 1024 / 1024;
    const scaled = (seconds * BAR.rows) / ROWS;
    console.log(
      [
        `orders export --format ${format}: ${ROWS.toLocaleString('en-US')} rows, ${mb.toFixed(1)} MB in ${seconds.toFixed(2)} s (${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s; ×${BAR.rows / ROWS} ≈ ${scaled.toFixed(1)} s for 1M, bar ≤ ${BAR.seconds} s)`,
        `  CLI peak RSS ${cliPeak()?.toFixed(0) ?? '?'} MB, server peak RSS ${peakRssMb(serverPid())?.toFixed(0) ?? '?'} MB (bar < ${BAR.rssMb} MB each)`,
        `  another client's list during the export: ${latencies.length} requests, p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms (bar p99 ≤ ${BAR.listP99Ms} ms)`,
        `  ${exported.err().trim()}`,
      ].join('\n'),
    );
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

/** The built server's pid: the process listening for it (startBuiltServer keeps it private). */
function serverPid(): number | undefined {
  const port = new URL(server.url).port;
  for (const entry of readdirProc()) {
    try {
      const cmd = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (
        cmd.includes(`PORT=${port}\0`) &&
        readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('server/dist/main.js')
      )
        return Number(entry);
    } catch {
      // gone or not ours
    }
  }
  return undefined;
}

function readdirProc(): string[] {
  try {
    return readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
}
