/**
 * The monitoring bars of issue 16, on the built server (`server/dist/main.js`, SQLite):
 *
 *   - 1 000 http jobs at a 20 s interval against a local HTTP server for 2 minutes: every
 *     check's lateness (its start − the time it was due: the previous check's start + 20 s)
 *     p99 ≤ 1 s; the server's CPU (percent of one core over the window) and peak RSS reported;
 *   - the 30-day uptime of one job with 30 days of minute heartbeats (43 200 runs and their
 *     hourly and daily roll-ups, written directly) answered in ≤ 5 ms at the median
 *     (`GET /api/admin/monitorJobs/{id}/uptime`, one connection), p99 reported.
 *
 * The jobs are created through the admin API (platform jobs: they may watch loopback), then the
 * server is restarted so they are spread over their period as after any restart (the runner's
 * first sync jitters each job's first check over its period). Lateness comes from the
 * heartbeats the server wrote (monitor_runs.at), not from the bench's clock.
 *
 *   npm run build -w @wanxiang/server && node --import tsx bench/monitor-scheduler.ts
 *
 * BENCH_MONITOR_JOBS (1000), BENCH_MONITOR_SECONDS (120) for a shorter run.
 * Exits non-zero when a bar is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addHeartbeat, emptyRollup, type Rollup } from '@wanxiang/core';
import { openDatabase } from '../server/src/db/connect';
import { periodStart, putRollup } from '../server/src/domain/monitor-jobs/rollups';
import { freePort } from '../testing/built-server';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = path.join(ROOT, 'server/dist/main.js');
const JOBS = Number(process.env.BENCH_MONITOR_JOBS ?? 1000);
const SECONDS = Number(process.env.BENCH_MONITOR_SECONDS ?? 120);
const INTERVAL_S = 20;
const ADMIN_PASSWORD = 'Bench#Admin-2024';
const CAPTCHA = 'bench-monitor';

interface Figure {
  name: string;
  value: number;
  unit: string;
  bar?: { op: '≤' | '≥'; limit: number };
}
const figures: Figure[] = [];

function report(f: Figure): void {
  figures.push(f);
  const value = `${f.value.toFixed(f.value < 10 ? 2 : 1)} ${f.unit}`;
  const bar = f.bar ? `bar ${f.bar.op} ${f.bar.limit} ${f.unit}` : '(reported)';
  const verdict = f.bar ? (passes(f) ? 'ok' : 'MISS') : '';
  console.log(`  ${f.name.padEnd(64)} ${value.padStart(11)}   ${bar.padEnd(18)} ${verdict}`);
}
const passes = ({ value, bar }: Figure) => !bar || (bar.op === '≤' ? value <= bar.limit : value >= bar.limit);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

// ---- the server ---------------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  base: string;
  token: string;
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WANXIANG_ADMIN_PASSWORD: ADMIN_PASSWORD,
      WANXIANG_CAPTCHA_TEST_CODE: CAPTCHA,
      WANXIANG_DEMO: 'off',
      LOG_LEVEL: 'warn',
      SCHEDULER: 'on',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not answer:\n${output}`);
    if (
      await fetch(`${base}/api/public/config`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const captcha = (await (await fetch(`${base}/api/captcha/request`)).json()) as { captchaId: string };
  const signin = (await (
    await fetch(`${base}/api/login/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'admin',
        password: ADMIN_PASSWORD,
        captchaId: captcha.captchaId,
        captchaCode: CAPTCHA,
      }),
    })
  ).json()) as { success: boolean; data?: { token: string } };
  if (!signin.success || !signin.data) throw new Error(`sign-in failed: ${JSON.stringify(signin)}`);
  return { child, base, token: signin.data.token };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function api(server: Server, method: string, url: string, body?: unknown) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: unknown; message?: string };
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

/** utime + stime of a process, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

// ---- the bench ----------------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-monitor-'));
let target: http.Server | null = null;
let server: Server | null = null;
try {
  let hits = 0;
  target = http.createServer((_req, res) => {
    hits += 1;
    res.end('ok');
  });
  await new Promise<void>((r) => target?.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;

  console.log(`  creating ${JOBS} http jobs at ${INTERVAL_S} s against ${targetUrl}`);
  server = await startServer(dataDir);
  for (let i = 0; i < JOBS; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, JOBS - i) }, (_, k) =>
        api(server as Server, 'POST', '/api/admin/monitorJobs', {
          name: `bench ${i + k + 1}`,
          kind: 'http',
          url: `${targetUrl}?job=${i + k + 1}`,
          intervalS: INTERVAL_S,
          retryIntervalS: INTERVAL_S,
          timeoutMs: 5000,
        }),
      ),
    );
  await stop(server.child);

  // A restart: every job's first check jittered over its period, as after any restart.
  server = await startServer(dataDir);
  const pid = server.child.pid as number;
  const cpu0 = cpuMs(pid);
  hits = 0;
  const t0 = Date.now();
  let peakRss = 0;
  while (Date.now() - t0 < SECONDS * 1000) {
    peakRss = Math.max(peakRss, rssMb(pid));
    await new Promise((r) => setTimeout(r, 1000));
  }
  const cpuPercent = ((cpuMs(pid) - cpu0) / (Date.now() - t0)) * 100;

  const handle = openDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'wanxiang.db') });
  // biome-ignore lint/suspicious/noExplicitAny: monitor tables are not in the schema type
  const db = handle.db as any;
  const runs = (await db
    .selectFrom('monitor_runs')
    .select(['job_id', 'at', 'status'])
    .where('at', '>=', t0)
    .orderBy('job_id')
    .orderBy('at')
    .execute()) as { job_id: number; at: number; status: string }[];
  const lateness: number[] = [];
  for (let i = 1; i < runs.length; i++) {
    const prev = runs[i - 1] as (typeof runs)[number];
    const cur = runs[i] as (typeof runs)[number];
    if (Number(prev.job_id) === Number(cur.job_id))
      lateness.push(Number(cur.at) - Number(prev.at) - INTERVAL_S * 1000);
  }
  lateness.sort((a, b) => a - b);
  // First checks are spread over the first period, so on average a job is checked SECONDS / 20 times.
  const expected = (JOBS * SECONDS) / INTERVAL_S;
  console.log(
    `  ${runs.length} checks recorded in ${SECONDS} s (≈ ${expected} due), ${runs.filter((r) => r.status !== 'up').length} not up; the target answered ${hits}`,
  );
  report({ name: 'check lateness p50 (start − due)', value: quantile(lateness, 0.5), unit: 'ms' });
  report({
    name: 'check lateness p99 (start − due)',
    value: quantile(lateness, 0.99),
    unit: 'ms',
    bar: { op: '≤', limit: 1000 },
  });
  report({ name: 'check lateness max', value: lateness[lateness.length - 1] ?? Number.NaN, unit: 'ms' });
  report({ name: `checks recorded / due in ${SECONDS} s`, value: (runs.length / expected) * 100, unit: '%' });
  report({ name: 'server CPU during the run (one core = 100 %)', value: cpuPercent, unit: '%' });
  report({ name: 'server peak RSS during the run', value: peakRss, unit: 'MB' });

  // 30 days of minute heartbeats for one (paused) job, roll-ups written directly.
  const job = (await api(server, 'POST', '/api/admin/monitorJobs', {
    name: '30 天',
    kind: 'http',
    url: targetUrl,
    intervalS: 60,
  })) as { id: number };
  await api(server, 'POST', `/api/admin/monitorJobs/${job.id}/pause`, {});
  const now = Date.now();
  const start = now - 30 * 86_400_000;
  const hours = new Map<number, Rollup>();
  const days = new Map<number, Rollup>();
  const beats: Record<string, unknown>[] = [];
  for (let at = start; at < now; at += 60_000) {
    const down = Math.floor(at / 60_000) % 997 === 0; // an outage minute now and then
    const beat = { status: down ? ('down' as const) : ('up' as const), latencyMs: 20 + ((at / 60_000) % 80) };
    for (const [map, period] of [
      [hours, 'hour'],
      [days, 'day'],
    ] as const) {
      const key = periodStart(period, at);
      map.set(key, addHeartbeat(map.get(key) ?? emptyRollup(), beat));
    }
    beats.push({
      job_id: job.id,
      status: beat.status,
      latency_ms: beat.latencyMs,
      message: '状态码 200',
      important: 0,
      at,
      created_at: at,
      updated_at: at,
    });
  }
  for (let i = 0; i < beats.length; i += 500)
    await db
      .insertInto('monitor_runs')
      .values(beats.slice(i, i + 500))
      .execute();
  await db.transaction().execute(async (trx: typeof db) => {
    for (const [startAt, r] of hours) await putRollup(trx, job.id, 'hour', startAt, r);
    for (const [startAt, r] of days) await putRollup(trx, job.id, 'day', startAt, r);
  });
  await handle.close();

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const t = performance.now();
      http
        .get(
          `${server?.base}${url}`,
          { agent, headers: { authorization: `Bearer ${server?.token}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(performance.now() - t));
          },
        )
        .on('error', reject);
    });
  const uptimeUrl = `/api/admin/monitorJobs/${job.id}/uptime`;
  console.log(`  30-day uptime: ${JSON.stringify(await api(server, 'GET', uptimeUrl))}`);
  for (let i = 0; i < 50; i++) await get(uptimeUrl); // warm up
  const times: number[] = [];
  for (let i = 0; i < 500; i++) times.push(await get(uptimeUrl));
  times.sort((a, b) => a - b);
  report({
    name: '30-day uptime of one job (43 200 heartbeats), median',
    value: quantile(times, 0.5),
    unit: 'ms',
    bar: { op: '≤', limit: 5 },
  });
  report({ name: '30-day uptime of one job, p99', value: quantile(times, 0.99), unit: 'ms' });
  agent.destroy();
} finally {
  if (server) await stop(server.child);
  if (target) {
    target.closeAllConnections();
    target.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

process.exit(figures.every(passes) ? 0 : 1);
