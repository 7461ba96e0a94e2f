/**
 * The API-market gateway's overhead (issue 17: key check + quota + meter, bar ≤ 1 ms at the
 * median), measured on the built server (`server/dist/main.js`) with the demo content:
 *
 * the same tool — the document library's list (core of docSearch, `searchDocs`) — called
 * directly on its public route `GET /api/public/docs?limit=20` and through the gateway
 * `GET /cloud/api/doc-search?limit=20` with a key (its paid quota large, its rate limit high).
 * Without `q` neither writes a search log, so the gateway's key lookup, rate window, quota
 * decrement and metering transaction are the whole difference. Three views, alternating the two
 * URLs so a noisy moment hurts both alike:
 *
 *   - 32 connections, each a client that waits a random time between its calls (exponential,
 *     so arrivals are spread as real callers' are; together `BENCH_GW_RATE` calls/s, default
 *     400, well under either route's capacity): median and p99 of both and the difference —
 *     **the bar: median difference ≤ 1 ms**. (autocannon's `-R` sends each second's calls in
 *     a burst, whose queue then dominates both medians.)
 *   - one connection, sequential: the per-call overhead without queueing (reported);
 *   - 32 connections flat out (closed loop): throughput and latency of both (reported; the
 *     gateway's transaction per call is then the limit, SQLite taking one writer at a time).
 *
 *   npm run build -w @wanxiang/server && node --import tsx bench/api-gateway.ts
 *
 * `BENCH_SECONDS` (default 10) per autocannon round, `BENCH_ROUNDS` (default 2) rounds each.
 * Prints each figure beside its bar and exits non-zero when the bar is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { apiKeyPrefix, newApiKey } from '../core/src/api-market/keys';
import { hashApiKey } from '../server/src/domain/api-market/key-hash';
import { freePort } from '../testing/built-server';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = path.join(ROOT, 'server/dist/main.js');
const AUTOCANNON = path.join(ROOT, 'node_modules/autocannon/autocannon.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const RATE = Number(process.env.BENCH_GW_RATE ?? 400);
const DIRECT = '/api/public/docs?limit=20';
const GATEWAY = '/cloud/api/doc-search?limit=20';

const children = new Set<ChildProcess>();
let failed = false;

function line(name: string, value: number, unit: string, bar?: number): void {
  const verdict =
    bar === undefined
      ? '(reported)'
      : value <= bar
        ? `bar ≤ ${bar} ${unit}  ok`
        : `bar ≤ ${bar} ${unit}  MISS`;
  if (bar !== undefined && value > bar) failed = true;
  console.log(`  ${name.padEnd(62)} ${`${value.toFixed(2)} ${unit}`.padStart(12)}   ${verdict}`);
}

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, done, output: () => output };
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function autocannon(url: string, key: string | null, rate: number | null): Promise<Load> {
  const args = [AUTOCANNON, '--json', '-c', '32', '-d', String(SECONDS)];
  if (rate !== null) args.push('-R', String(rate));
  if (key) args.push('-H', `x-api-key=${key}`);
  const p = start([...args, url], {});
  const code = await p.done;
  const text = p.output();
  if (code !== 0) throw new Error(`autocannon failed:\n${text}`);
  const r = JSON.parse(text.slice(text.indexOf('{'))) as {
    requests: { total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
    duration: number;
  };
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.errors + r.non2xx,
  };
}

/**
 * 32 keep-alive clients for `SECONDS`, each calling `url` and then pausing an exponentially
 * distributed time, together `RATE` calls a second: every latency, sorted.
 */
async function thinkingClients(
  base: string,
  url: string,
  headers: Record<string, string>,
): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const { hostname, port } = new URL(base);
  const meanPauseMs = (32 * 1000) / RATE;
  const until = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const client = async () => {
    await new Promise((r) => setTimeout(r, Math.random() * meanPauseMs));
    while (performance.now() < until) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ agent, hostname, port, path: url, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`${url}: ${status}`);
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * meanPauseMs));
    }
  };
  try {
    await Promise.all(Array.from({ length: 32 }, client));
  } finally {
    agent.destroy();
  }
  return latencies.sort((a, b) => a - b);
}

async function oneConnection(base: string, key: string, count: number): Promise<[number[], number[]]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(base);
  const once = (url: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ agent, hostname, port, path: url, headers }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - t0)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const direct: number[] = [];
  const gateway: number[] = [];
  try {
    for (let i = 0; i < 300; i++) {
      await once(DIRECT, {});
      await once(GATEWAY, { 'x-api-key': key });
    }
    for (let i = 0; i < count; i++) {
      direct.push(await once(DIRECT, {}));
      gateway.push(await once(GATEWAY, { 'x-api-key': key }));
    }
  } finally {
    agent.destroy();
  }
  return [direct.sort((a, b) => a - b), gateway.sort((a, b) => a - b)];
}

const q = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
const median = (xs: number[]) =>
  q(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

async function main(): Promise<void> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: npm run build -w @wanxiang/server`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-gw-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start([SERVER], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    WANXIANG_ADMIN_PASSWORD: 'Bench#Admin-2024',
    WANXIANG_DEMO: 'on',
    SCHEDULER: 'off',
    LOG_LEVEL: 'warn',
  });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
      if (Date.now() > deadline) throw new Error(`server did not answer:\n${server.output()}`);
      if (
        await fetch(`${base}/api/public/config`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // A key of a demo user with a large paid quota, the API's limit raised above any load here:
    // what key management and a plan order would leave, written as rows.
    const key = newApiKey();
    const db = new Database(path.join(dataDir, 'wanxiang.db'));
    const now = Date.now();
    const api = db.prepare("select id from market_apis where code = 'doc-search'").get() as
      | { id: number }
      | undefined;
    if (!api) throw new Error('the demo has no doc-search API');
    const user = db.prepare("select id from users where username = 'guest'").get() as { id: number };
    db.prepare('update market_apis set rate_limit_per_min = 100000000 where id = ?').run(api.id);
    db.prepare(
      'insert into api_keys (created_at, updated_at, user_id, name, prefix, secret_hash, scopes, status) values (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(now, now, user.id, 'bench', apiKeyPrefix(key), hashApiKey(key), '[]', 'active');
    db.prepare(
      'insert into api_quotas (created_at, updated_at, user_id, api_id, remaining, expires_at) values (?, ?, ?, ?, ?, ?)',
    ).run(now, now, user.id, api.id, 1_000_000_000, now + 86_400_000);
    db.close();

    const check = await fetch(`${base}${GATEWAY}`, { headers: { 'x-api-key': key } });
    const body = (await check.json()) as { data?: { results?: unknown[] } };
    const direct = (await (await fetch(`${base}${DIRECT}`)).json()) as { data?: { results?: unknown[] } };
    if (check.status !== 200 || body.data?.results?.length !== direct.data?.results?.length)
      throw new Error(`unexpected gateway answer ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
    console.log(
      `  server up, demo seeded; ${body.data?.results?.length} documents per answer; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const [d1, g1] = await oneConnection(base, key, 2000);
    line('one connection: direct median', q(d1, 0.5), 'ms');
    line('one connection: gateway median', q(g1, 0.5), 'ms');
    line('one connection: gateway − direct, median', q(g1, 0.5) - q(d1, 0.5), 'ms');
    line('one connection: direct p99', q(d1, 0.99), 'ms');
    line('one connection: gateway p99', q(g1, 0.99), 'ms');

    const spread = { d: [] as number[][], g: [] as number[][] };
    const open = { d: [] as Load[], g: [] as Load[] };
    await autocannon(`${base}${GATEWAY}`, key, null); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      spread.d.push(await thinkingClients(base, DIRECT, {}));
      spread.g.push(await thinkingClients(base, GATEWAY, { 'x-api-key': key }));
      open.d.push(await autocannon(`${base}${DIRECT}`, null, null));
      open.g.push(await autocannon(`${base}${GATEWAY}`, key, null));
    }
    const bad = [...open.d, ...open.g].reduce((s, l) => s + l.bad, 0);
    if (bad > 0) throw new Error(`${bad} answers were not 200`);
    const m = (ls: Load[], k: keyof Load) => median(ls.map((l) => l[k]));
    const sm = (runs: number[][], p: number) => median(runs.map((run) => q(run, p)));
    const calls = (runs: number[][]) => runs.reduce((n, run) => n + run.length, 0) / runs.length / SECONDS;
    const label = `32 clients, ${RATE} calls/s spread`;
    line(`${label}: direct median (${calls(spread.d).toFixed(0)}/s)`, sm(spread.d, 0.5), 'ms');
    line(`${label}: gateway median (${calls(spread.g).toFixed(0)}/s)`, sm(spread.g, 0.5), 'ms');
    line(`${label}: direct p99`, sm(spread.d, 0.99), 'ms');
    line(`${label}: gateway p99`, sm(spread.g, 0.99), 'ms');
    line(`${label}: gateway − direct, median`, sm(spread.g, 0.5) - sm(spread.d, 0.5), 'ms', 1);
    line('32 connections flat out: direct req/s', m(open.d, 'rps'), 'req/s');
    line('32 connections flat out: gateway req/s', m(open.g, 'rps'), 'req/s');
    line('32 connections flat out: direct median / p99', m(open.d, 'p50'), `ms / ${m(open.d, 'p99')} ms`);
    line('32 connections flat out: gateway median / p99', m(open.g, 'p50'), `ms / ${m(open.g, 'p99')} ms`);

    const db2 = new Database(path.join(dataDir, 'wanxiang.db'), { readonly: true });
    const metered = db2
      .prepare('select count(*) as n from api_calls where key_id = (select id from api_keys where name = ?)')
      .get('bench') as { n: number };
    db2.close();
    console.log(`  ${metered.n.toLocaleString('en')} gateway calls metered`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(failed ? 1 : 0),
  (error) => {
    console.error(error);
    for (const child of children) child.kill('SIGTERM');
    process.exit(1);
  },
);
