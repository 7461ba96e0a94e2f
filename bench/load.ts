/**
 * The load bar of BENCHMARKS.md (issue 18): 64 connections for 60 s of mixed reads and writes
 * through the real app — the built server (`server/dist/main.js`) started as `npm start` starts
 * it, with its demo content, on SQLite (and on PostgreSQL with `BENCH_POSTGRES_URL=postgres://…`,
 * in the schema `bench_load`, dropped afterwards). Bars: zero errors, p99 ≤ 100 ms, memory flat.
 *
 *   npm run build && node --import tsx bench/load.ts
 *
 * The mix (weights in MIX below): 80 % reads, 20 % writes, from three signed-in users (admin,
 * operator, editor: each connection is one of them) and anonymous visitors — a back office whose
 * staff mostly look things up (lists with a filter, details) while the public site is browsed
 * (the pages' HTML and the JSON they fetch), and every fifth call changes something: an order
 * created and paid from the customer's balance (two calls, as the back office's order screen
 * does), a good's stock or price updated, a community reply posted, a balance adjusted.
 * Every answer is checked: a status other than the expected one (200, or the public pages' HTML)
 * or `success: false` counts as an error.
 *
 * Memory, where it can grow: V8's heap of live objects, and everything outside the heap.
 * bench/memory-probe.mjs, loaded into the server with `--expose-gc`, prints process.memoryUsage()
 * each second and, on SIGUSR2, after a full garbage collection. The live heap: heap used at rest —
 * the warm-up's calls all answered, then a full collection — before the measured run and again
 * after it, grown by at most 10 % or 5 MB, whichever is more. Outside the heap (native memory,
 * Buffers, code; RSS less V8's heap memory, read at the same instant): the median of the last
 * third of the run's seconds at most 10 MB above the first third's. Checked against leaks loaded
 * into the server for the purpose (0.6 MB a second of Buffers; objects kept in the heap): each
 * flagged by its own line, a run without one by neither (BENCHMARKS.md, twenty-third session). A
 * leak slower than about 10 MB in 40 s is below what one minute tells.
 * Printed beside them without a bar: RSS, read from /proc/<pid>/status each second, the highest of
 * each third, and the heap after each of the run's full collections, the lowest of each third.
 * Under saturation the heap grows to the collector's limit between full collections (v8-heap.ts),
 * a saw whose teeth are 2–60 s and whose height the collector sets anew each time (V8's heap
 * memory 117–540 MB): RSS's peaks by third rose or fell by up to 160 MB in a minute with the live
 * heap and the memory outside it flat. The bar was once those peaks, and false-flagged
 * (BENCHMARKS.md, twenty-first session); then also the heap after the last full collection,
 * which found 76–89 MB after three collections that followed another within 1–8 s, 60–69 MB
 * after the other 39 of a 240-s run. RSS outside the heap read at rest after a full collection is
 * no better: it moved by 30–40 MB either way in runs without a leak (likely pages V8 and the
 * allocator keep a while after freeing them).
 * Warm-up: the same load for `BENCH_LOAD_WARMUP` seconds (default 30), not counted. For the first
 * 20–30 s of load V8 is still compiling the hot paths with TurboFan on its helper threads, which
 * on a 2-core machine take the CPU the server's thread and PostgreSQL need: `--trace-opt` counted
 * 1.0–2.0 s of compiling in each 5 s of the load's first 20 s, 0.1–0.3 s in each 5 s from 35 s on
 * (BENCHMARKS.md, fifteenth session). A server in service has long passed that; what is measured is
 * the load a warm server carries. `BENCH_LOAD_WARMUP=5` measures a server just started.
 *
 * `BENCH_LOAD_SECONDS` (default 60), `BENCH_LOAD_CONNECTIONS` (default 64), `BENCH_LOAD_WARMUP`
 * (seconds, default 30, not counted), `BENCH_LOAD_MIX=reads` for reads alone (the attack run's
 * 151 ms p99 was reads alone), `BENCH_LOAD_SKIP_SQLITE=1` for PostgreSQL only,
 * `BENCH_LOAD_CPU_PROF=<dir>` starts the server with `--cpu-prof` into that folder,
 * `BENCH_LOAD_SERVER=<main.js>` runs another build (a baseline in the same session),
 * `BENCH_LOAD_NODE_FLAGS='--min-semi-space-size=4'` starts the server with more Node flags,
 * `BENCH_LOAD_SERVER_LOG=<file>` writes every line of the server's standard output (where
 * `--trace-opt` prints).
 * `BENCH_LOAD_COST=<seconds>` measures instead what each kind of call costs: every kind alone
 * for that long at 8 connections, the server's CPU per call (user + system from /proc), what the
 * server allocated per call and let die young (KB freed by its scavenges, from `--trace-gc`:
 * what drives its collections) and, with a local PostgreSQL, its processes' CPU per call — the
 * figures that say where a load run's time goes, and that compare across days when the machine's
 * speed does not — and, on
 * PostgreSQL, the statements and round trips per call (counted on their way to the database by
 * testing/pg-statement-counter.ts, the server's own timers taken off; statements sent together
 * are one round trip), which do not depend on the machine at all;
 * `BENCH_LOAD_KINDS=<text>` keeps only the kinds whose name holds it (with `BENCH_LOAD_CPU_PROF`,
 * a profile of one kind); `BENCH_LOAD_ONLY=<regular expression>` keeps, in a load run, only the
 * kinds whose name matches (a part of the mix together: what mixing them costs against each alone).
 * Where a run's time went: the CPU of the server, of PostgreSQL's processes and of this generator
 * during the run is printed beside the figures (they share the machine's cores), and how long the
 * server's thread was ready to run but waited for a core another process held (the kernel's
 * schedstat);
 * `BENCH_LOAD_TIMELINE=1` prints each second's calls, p50 and p99, the CPU of the server's main
 * thread and of its other threads (V8's collector and compiler), and the server's full
 * collections in it (`=<file>` writes every call's end, duration and kind as JSON instead, for
 * finer windows), `BENCH_LOAD_GC_LOG=<file>` appends the server's `--trace-gc` lines to a file,
 * and `BENCH_LOAD_PROCESSES=<n>` (PostgreSQL) starts n server processes on the one database, the
 * connections shared among them as a balancer would.
 * Prints each figure beside its bar and exits non-zero when one is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../testing/built-server';
import { countedUrl, type StatementCounter } from '../testing/pg-statement-counter';
import { machineSpeed } from './machine-speed';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** `BENCH_LOAD_SERVER=<main.js>`: another build of the server (a baseline measured beside it). */
const SERVER = path.resolve(ROOT, process.env.BENCH_LOAD_SERVER ?? 'server/dist/main.js');
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 64);
const WARMUP = Number(process.env.BENCH_LOAD_WARMUP ?? 30);
const READS_ONLY = process.env.BENCH_LOAD_MIX === 'reads';
const ONLY_KINDS = process.env.BENCH_LOAD_ONLY ? new RegExp(process.env.BENCH_LOAD_ONLY) : null;
const PG_URL = process.env.BENCH_POSTGRES_URL;
const CPU_PROF = process.env.BENCH_LOAD_CPU_PROF;
/** `BENCH_LOAD_SERVER_LOG=<file>`: each line of the server's stdout, after ms since its start. */
const SERVER_LOG = process.env.BENCH_LOAD_SERVER_LOG;
const ADMIN_PASSWORD = 'Bench#Admin-2024';
const DEMO_PASSWORD = 'Bench#Demo-2024';
const CAPTCHA = 'bench-load';
const P99_BAR_MS = 100;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (...values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

// ---- the server ----------------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Heap after each full GC (`--trace-gc`), MB, with the time it was printed. */
  heapAfterGc: { at: number; mb: number }[];
  /** Young-generation collections so far, and the MB they freed (≈ what was allocated and died young). */
  scavenges: { count: number; freedMb: number };
  /** The memory outside V8's heap (RSS less the heap's memory, read together), MB, each second. */
  outsideHeap: { at: number; mb: number }[];
  /** A full collection now, and the memory after it (bench/memory-probe.mjs). */
  atRest(): Promise<AtRest>;
  others?: Server[];
}

/** The server's memory after a full collection, MB (process.memoryUsage). */
interface AtRest {
  rss: number;
  heapUsed: number;
}

const children = new Set<ChildProcess>();

async function startServer(dataDir: string, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const flags = [
    '--trace-gc',
    '--expose-gc',
    `--import=${path.join(ROOT, 'bench/memory-probe.mjs')}`,
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
    ...(process.env.BENCH_LOAD_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ];
  const child = spawn(process.execPath, [...flags, SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      WANXIANG_ADMIN_PASSWORD: ADMIN_PASSWORD,
      WANXIANG_DEMO_PASSWORD: DEMO_PASSWORD,
      WANXIANG_CAPTCHA_TEST_CODE: CAPTCHA,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('close', () => children.delete(child));
  let output = '';
  const heapAfterGc: Server['heapAfterGc'] = [];
  const scavenges: Server['scavenges'] = { count: 0, freedMb: 0 };
  const outsideHeap: Server['outsideHeap'] = [];
  const probes: ((reading: AtRest) => void)[] = [];
  let partial = '';
  const started = Date.now();
  child.stdout?.on('data', (b: Buffer) => {
    const lines = (partial + b.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (SERVER_LOG) appendFileSync(SERVER_LOG, `${Date.now() - started} ${line}\n`);
      const figure = (name: string) => Number(new RegExp(`${name}=([\\d.]+)`).exec(line)?.[1]);
      if (line.startsWith('MEMORY-SAMPLE ')) {
        outsideHeap.push({ at: Date.now(), mb: figure('rss') - figure('heapTotal') });
        continue;
      }
      if (line.startsWith('MEMORY-PROBE ')) {
        probes.shift()?.({ rss: figure('rss'), heapUsed: figure('heapUsed') });
        continue;
      }
      // "[pid:0x…]   12345 ms: Mark-Compact 30.5 (45.2) -> 28.1 (44.0) MB, …"
      if (process.env.BENCH_LOAD_GC_LOG && /ms: (Scavenge|Mark-Compact|Minor)/.test(line))
        appendFileSync(process.env.BENCH_LOAD_GC_LOG, `${line}\n`);
      const gc = /: Mark-Compact[^\d]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(/.exec(line);
      if (gc) heapAfterGc.push({ at: Date.now(), mb: Number(gc[1]) });
      // "… ms: Scavenge 45.2 (60.1) -> 30.5 (61.2) MB, …"
      const young = /: Scavenge[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \(/.exec(line);
      if (young) {
        scavenges.count++;
        scavenges.freedMb += Math.max(0, Number(young[1]) - Number(young[2]));
      } else if (!/ms: (Scavenge|Mark-Compact|Minor)/.test(line)) output += `${line}\n`;
    }
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not answer:\n${output}`);
    const up = await fetch(`${base}/api/public/config`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const atRest = () =>
    new Promise<AtRest>((resolve, reject) => {
      // A server that stopped answering the probe fails the run instead of hanging it.
      const timer = setTimeout(() => reject(new Error(`no memory probe answer:\n${output}`)), 30_000);
      probes.push((reading) => {
        clearTimeout(timer);
        resolve(reading);
      });
      child.kill('SIGUSR2');
    });
  return { child, base, output: () => output, heapAfterGc, scavenges, outsideHeap, atRest };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---- calls ---------------------------------------------------------------------------------------

interface Answer {
  status: number;
  /** The JSON answer, parsed when first read: most calls are checked by `SUCCESS_PREFIX` alone. */
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  readonly body: any;
  text: string;
}

/**
 * The server's success envelope begins so, whichever way it was written (`ok` through Fastify's
 * serializer with the envelope's schema, or `okBytes`): a call is checked by it without parsing
 * its answer. Parsing every answer (lists of 10–30 KB) was about a sixth of this generator's CPU
 * (0.29 → 0.25 ms a call), which the server and PostgreSQL share two cores with.
 */
const SUCCESS_PREFIX = '{"success":true';

/** An answer whose JSON is parsed on first use (null when it is not JSON). */
function answerOf(status: number, text: string, json: boolean): Answer {
  let parsed: unknown;
  return {
    status,
    text,
    get body() {
      if (parsed === undefined) {
        parsed = null;
        if (json) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = null;
          }
        }
      }
      return parsed;
    },
  };
}

class Client {
  private readonly agent: Agent;
  private readonly hostname: string;
  private readonly port: string;

  constructor(base: string, sockets: number) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
    const url = new URL(base);
    this.hostname = url.hostname;
    this.port = url.port;
  }

  call(method: string, url: string, token: string | null, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request(
        { agent: this.agent, hostname: this.hostname, port: this.port, method, path: url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            const json = (res.headers['content-type'] ?? '').includes('json');
            resolve(answerOf(res.statusCode ?? 0, text, json));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

async function signIn(client: Client, username: string, password: string): Promise<string> {
  const captcha = await client.call('GET', '/api/captcha/request', null);
  const answer = await client.call('POST', '/api/login/signin', null, {
    username,
    password,
    captchaId: captcha.body.captchaId,
    captchaCode: CAPTCHA,
  });
  if (!answer.body?.success) throw new Error(`sign-in of ${username} failed: ${answer.text.slice(0, 200)}`);
  return answer.body.data.token as string;
}

/** The answer's data, or an error naming the call. */
async function must(client: Client, method: string, url: string, token: string | null, body?: unknown) {
  const answer = await client.call(method, url, token, body);
  if (answer.status !== 200 || !answer.body?.success)
    throw new Error(`${method} ${url}: ${answer.status} ${answer.text.slice(0, 300)}`);
  // biome-ignore lint/suspicious/noExplicitAny: read field by field
  return answer.body.data as any;
}

// ---- the world the mix works in ------------------------------------------------------------------

interface World {
  tokens: { admin: string; operator: string; editor: string };
  /** Open stores with goods on sale that have no specs (an order's lines need no sku). */
  stores: { id: number; goods: number[]; minOrderFen: number; price: Map<number, number> }[];
  goods: number[];
  customers: number[];
  orders: number[];
  users: number[];
  articles: number[];
  topics: number[];
  docWords: string[];
}

/** Reads what the demo content holds, and prepares it: balances to pay with, stock to sell. */
async function prepare(client: Client): Promise<World> {
  const admin = await signIn(client, 'admin', ADMIN_PASSWORD);
  const operator = await signIn(client, 'operator', DEMO_PASSWORD);
  const editor = await signIn(client, 'editor', DEMO_PASSWORD);
  const stores = [];
  for (const store of (await must(client, 'GET', '/api/admin/stores?status=open&limit=50', admin)).results) {
    const goods = (
      await must(client, 'GET', `/api/admin/goods?storeId=${store.id}&status=onSale&limit=100`, admin)
    ).results.filter((g: { specs: unknown }) => !g.specs);
    if (goods.length === 0) continue;
    // Enough stock for every order of the run (orders take it, a cancelled one would return it).
    for (const g of goods)
      await must(client, 'PATCH', `/api/admin/goods/${g.id}`, admin, { stock: 1_000_000 });
    stores.push({
      id: store.id as number,
      goods: goods.map((g: { id: number }) => g.id),
      minOrderFen: store.minOrderFen as number,
      price: new Map<number, number>(goods.map((g: { id: number; priceFen: number }) => [g.id, g.priceFen])),
    });
  }
  if (stores.length === 0) throw new Error('no open store with goods on sale in the demo content');
  const customers = (
    await must(client, 'GET', '/api/admin/users?status=active&sort=-balanceFen&limit=10', admin)
  ).results.map((u: { id: number }) => u.id as number);
  for (const userId of customers)
    await must(client, 'POST', '/api/admin/balanceLedger/adjust', admin, {
      userId,
      changeFen: 100_000_000,
      note: '压测充值',
    });
  const ids = async (url: string) =>
    (await must(client, 'GET', url, admin)).results.map((r: { id: number }) => r.id as number);
  const docs = (await must(client, 'GET', '/api/public/docs?limit=50', null)).results as { title: string }[];
  const docWords = [
    ...new Set(docs.flatMap((d) => [d.title.slice(0, 2), d.title.slice(2, 4), d.title.slice(-4, -2)])),
  ].filter((w) => w.length === 2);
  return {
    tokens: { admin, operator, editor },
    stores,
    goods: stores.flatMap((s) => s.goods),
    customers,
    orders: await ids('/api/admin/orders?limit=200'),
    users: await ids('/api/admin/users?limit=200'),
    articles: (await must(client, 'GET', '/api/public/articles?limit=50', null)).results.map(
      (a: { id: number }) => a.id,
    ),
    topics: await ids('/api/admin/bbsTopics?limit=50'),
    docWords,
  };
}

// ---- the mix -------------------------------------------------------------------------------------

type Role = 'admin' | 'operator' | 'editor';

interface Kind {
  name: string;
  write: boolean;
  weight: number;
  /** Who may make the call: a connection signed in as one of them, or anyone for public calls. */
  roles: Role[] | 'anyone';
  /** Makes the call(s); each is timed and checked by `timed`. */
  run(ctx: CallContext): Promise<unknown>;
}

interface CallContext {
  world: World;
  token: string;
  timed(kind: string, method: string, url: string, body?: unknown, html?: boolean): Promise<Answer>;
}

const PAGES = ['/', '/doc/search', '/photo', '/movie'];
const ORDER_STATUSES = ['paid', 'accepted', 'completed', 'cancelled', 'pending_payment'];

const MIX: Kind[] = [
  // Back-office lists (30 %): orders by status (the board's tabs), other resources.
  {
    name: 'admin list: orders by status',
    write: false,
    weight: 14,
    roles: ['admin', 'operator'],
    run: ({ timed }) => timed('list', 'GET', `/api/admin/orders?status=${pick(ORDER_STATUSES)}`),
  },
  {
    name: 'admin list: goods of a store',
    write: false,
    weight: 6,
    roles: ['admin', 'operator'],
    run: ({ timed, world }) => timed('list', 'GET', `/api/admin/goods?storeId=${pick(world.stores).id}`),
  },
  {
    name: 'admin list: users',
    write: false,
    weight: 4,
    roles: ['admin'],
    run: ({ timed }) => timed('list', 'GET', `/api/admin/users?page=${1 + Math.floor(Math.random() * 5)}`),
  },
  {
    name: 'admin list: community replies',
    write: false,
    weight: 6,
    roles: ['admin', 'editor'],
    run: ({ timed }) => timed('list', 'GET', '/api/admin/bbsPosts?sort=-createdAt'),
  },
  // Details (15 %).
  {
    name: 'detail: order',
    write: false,
    weight: 7,
    roles: ['admin', 'operator'],
    run: ({ timed, world }) => timed('detail', 'GET', `/api/admin/orders/${pick(world.orders)}`),
  },
  {
    name: 'detail: good',
    write: false,
    weight: 4,
    roles: ['admin', 'operator'],
    run: ({ timed, world }) => timed('detail', 'GET', `/api/admin/goods/${pick(world.goods)}`),
  },
  {
    name: 'detail: user',
    write: false,
    weight: 4,
    roles: ['admin'],
    run: ({ timed, world }) => timed('detail', 'GET', `/api/admin/users/${pick(world.users)}`),
  },
  // The public site (25 %): pages' HTML and the JSON they fetch.
  {
    name: 'public page (HTML)',
    write: false,
    weight: 8,
    roles: 'anyone',
    run: ({ timed, world }) =>
      timed(
        'page',
        'GET',
        Math.random() < 0.3 ? `/article/${pick(world.articles)}` : pick(PAGES),
        undefined,
        true,
      ),
  },
  {
    name: 'public: blog list / article',
    write: false,
    weight: 7,
    roles: 'anyone',
    run: ({ timed, world }) =>
      Math.random() < 0.5
        ? timed('public', 'GET', `/api/public/articles?page=${1 + Math.floor(Math.random() * 3)}&limit=10`)
        : timed('public', 'GET', `/api/public/articles/${pick(world.articles)}`),
  },
  {
    name: 'public: document search',
    write: false,
    weight: 6,
    roles: 'anyone',
    run: ({ timed, world }) =>
      timed('public', 'GET', `/api/public/docs?q=${encodeURIComponent(pick(world.docWords))}&limit=10`),
  },
  {
    name: 'public: gallery',
    write: false,
    weight: 4,
    roles: 'anyone',
    run: ({ timed }) => timed('public', 'GET', '/api/public/photos?limit=30'),
  },
  // API JSON the screens fetch around the lists (10 %).
  {
    name: 'api: current user, dashboard',
    write: false,
    weight: 10,
    roles: ['admin', 'operator'],
    run: ({ timed }) =>
      Math.random() < 0.6
        ? timed('api', 'GET', '/api/user/current')
        : timed('api', 'GET', '/api/admin/dashboard'),
  },
  // Writes (20 %).
  {
    name: 'write: order created and paid by balance',
    write: true,
    weight: 8,
    roles: ['admin', 'operator'],
    run: async ({ timed, world }) => {
      const store = pick(world.stores);
      const goodsId = pick(store.goods);
      const qty = Math.max(1, Math.ceil(store.minOrderFen / (store.price.get(goodsId) ?? 1)));
      const created = await timed('order create', 'POST', '/api/admin/orders', {
        storeId: store.id,
        userId: pick(world.customers),
        items: [{ goodsId, qty }],
        fulfilment: 'pickup',
        payMethod: 'balance',
      });
      const id = created.body?.data?.id;
      if (typeof id !== 'number') return;
      await timed('order pay', 'POST', `/api/admin/orders/${id}/pay`, { payMethod: 'balance' });
      if (world.orders.length < 2000) world.orders.push(id);
    },
  },
  {
    name: 'write: good updated',
    write: true,
    weight: 5,
    roles: ['admin', 'operator'],
    run: ({ timed, world }) =>
      timed('update', 'PATCH', `/api/admin/goods/${pick(world.goods)}`, {
        stock: 1_000_000 + Math.floor(Math.random() * 1000),
        sort: Math.floor(Math.random() * 100),
      }),
  },
  {
    name: 'write: community reply posted',
    write: true,
    weight: 5,
    roles: ['admin', 'editor'],
    run: ({ timed, world }) =>
      timed('create', 'POST', '/api/admin/bbsPosts', {
        topicId: pick(world.topics),
        authorId: pick(world.customers),
        content: `压测回帖：外卖送得很快，汤也没洒。${Math.random().toString(36).slice(2, 8)}`,
      }),
  },
  {
    name: 'write: balance adjusted',
    write: true,
    weight: 2,
    roles: ['admin'],
    run: ({ timed, world }) =>
      timed('update', 'POST', '/api/admin/balanceLedger/adjust', {
        userId: pick(world.customers),
        changeFen: 100 + Math.floor(Math.random() * 1000),
        note: '压测调整',
      }),
  },
];

interface Tally {
  byKind: Map<string, number[]>;
  /** Each call's end (ms since the run's start) and duration, for `BENCH_LOAD_TIMELINE`. */
  timeline: [number, number, string][];
  errors: { kind: string; status: number; text: string }[];
}

/** One connection's loop: a kind drawn by weight among those its user may make, again and again. */
async function connection(
  client: Client,
  world: World,
  role: Role | null,
  until: number,
  tally: Tally | null,
): Promise<void> {
  const kinds = MIX.filter(
    (k) =>
      (!READS_ONLY || !k.write) &&
      (!ONLY_KINDS || ONLY_KINDS.test(k.name)) &&
      (k.roles === 'anyone' || (role !== null && k.roles.includes(role))),
  );
  if (kinds.length === 0) return;
  const total = kinds.reduce((s, k) => s + k.weight, 0);
  const token = role ? world.tokens[role] : '';
  const timed: CallContext['timed'] = async (kind, method, url, body, html) => {
    const t0 = performance.now();
    let answer: Answer;
    try {
      answer = await client.call(method, url, token || null, body);
    } catch (error) {
      answer = answerOf(0, String(error), false);
    }
    const ms = performance.now() - t0;
    const ok =
      answer.status === 200 &&
      (html ? answer.text.includes('<html') : answer.text.startsWith(SUCCESS_PREFIX));
    if (tally) {
      let times = tally.byKind.get(kind);
      if (!times) {
        times = [];
        tally.byKind.set(kind, times);
      }
      times.push(ms);
      tally.timeline.push([t0 + ms, ms, kind]);
      if (!ok)
        tally.errors.push({
          kind: `${method} ${url}`,
          status: answer.status,
          text: answer.text.slice(0, 200),
        });
    }
    return answer;
  };
  while (Date.now() < until) {
    let r = Math.random() * total;
    let kind = kinds[0] as Kind;
    for (const k of kinds) {
      kind = k;
      r -= k.weight;
      if (r < 0) break;
    }
    await kind.run({ world, token, timed });
  }
}

/**
 * Who each connection is: the mix's staff calls need a role, the public ones none. Connections are
 * shared out in proportion to the weight each role can serve: a quarter anonymous visitors, the
 * rest admin, operator and editor in turn.
 */
const ROLES: readonly (Role | null)[] = [
  null,
  'admin',
  'operator',
  'admin',
  'editor',
  'operator',
  null,
  'admin',
];
function roleOf(i: number): Role | null {
  return ROLES[i % ROLES.length] ?? null;
}

/**
 * Which server process a connection goes to (`BENCH_LOAD_PROCESSES`): whole turns of `ROLES`
 * each, so every process serves the same mix. Dealt one by one, the first of two got every
 * anonymous visitor, the editor and an operator, the second three admins and an operator: most
 * of the writes and lists.
 */
function processOf(i: number, processes: number): number {
  return Math.floor(i / ROLES.length) % processes;
}

interface Result {
  label: string;
  requests: number;
  errors: Tally['errors'];
  p50: number;
  p99: number;
  rps: number;
  perKind: { kind: string; n: number; p50: number; p99: number }[];
  rss: { start: number; middle: number; end: number };
  /** RSS less V8's heap memory (bench/memory-probe.mjs, each second), MB, the median of each third. */
  outsideHeap: { start: number; middle: number; end: number };
  /** Heap after full GC, MB, the lowest of each third of the run's full collections. */
  heap: { start: number; middle: number; end: number; count: number };
  /** The server at rest after a full collection, before the measured run and after it. */
  atRest: { before: AtRest; after: AtRest };
  loadAvg: string;
  /** CPU used during the run, % of one core: the server, PostgreSQL's processes, this generator. */
  cpu: { server: number; postgres: number; generator: number; serverWaiting: number };
}

async function measure(server: Server, label: string): Promise<Result> {
  const setup = new Client(server.base, 4);
  const world = await prepare(setup);
  setup.close();
  const bases = [server.base, ...(server.others ?? []).map((o) => o.base)];
  const clients = bases.map((b) => new Client(b, CONNECTIONS));
  const run = async (seconds: number, tally: Tally | null) => {
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        connection(clients[processOf(i, clients.length)] as Client, world, roleOf(i), until, tally),
      ),
    );
  };
  try {
    if (WARMUP > 0) await run(WARMUP, null);
    const before = await server.atRest();
    const tally: Tally = { byKind: new Map(), errors: [], timeline: [] };
    const rss: number[] = [];
    const pid = server.child.pid;
    const sample = () => rss.push(rssMb(pid));
    sample();
    const threads: ThreadsSample[] = [threadsCpu(pid ?? 0)];
    const sampler = setInterval(() => {
      sample();
      threads.push(threadsCpu(pid ?? 0));
    }, 1000);
    const cpu0 = { server: cpuMs(pid ?? 0), postgres: postgresCpu(), self: process.cpuUsage() };
    const waited0 = waitedForCpuMs(pid ?? 0);
    const t0 = Date.now();
    await run(SECONDS, tally);
    const seconds = (Date.now() - t0) / 1000;
    const self = process.cpuUsage(cpu0.self);
    const share = (ms: number) => ms / (seconds * 10); // % of one core
    const cpu = {
      server: share(cpuMs(pid ?? 0) - cpu0.server),
      postgres: share(postgresCpuSince(cpu0.postgres)),
      generator: share((self.user + self.system) / 1000),
      serverWaiting: share(waitedForCpuMs(pid ?? 0) - waited0),
    };
    clearInterval(sampler);
    if (process.env.BENCH_LOAD_TIMELINE === '1')
      printTimeline(
        tally.timeline,
        server.heapAfterGc.map((g) => g.at),
        threads,
      );
    else if (process.env.BENCH_LOAD_TIMELINE)
      writeFileSync(process.env.BENCH_LOAD_TIMELINE, JSON.stringify(tally.timeline));
    sample();
    const loadAvg = load();
    const all = [...tally.byKind.values()].flat().sort((a, b) => a - b);
    const perKind = [...tally.byKind.entries()]
      .map(([kind, times]) => {
        times.sort((a, b) => a - b);
        return { kind, n: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
      })
      .sort((a, b) => b.n - a.n);
    const gcs = server.heapAfterGc.filter((g) => g.at >= t0);
    const after = await server.atRest();
    return {
      label,
      requests: all.length,
      errors: tally.errors,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      rps: all.length / seconds,
      perKind,
      rss: thirds(rss, Math.max),
      outsideHeap: thirds(
        server.outsideHeap.filter((m) => m.at >= t0 && m.at <= t0 + seconds * 1000).map((m) => m.mb),
        median,
      ),
      heap: {
        ...thirds(
          gcs.map((g) => g.mb),
          Math.min,
        ),
        count: gcs.length,
      },
      atRest: { before, after },
      loadAvg,
      cpu,
    };
  } finally {
    for (const client of clients) client.close();
  }
}

/**
 * `BENCH_LOAD_TIMELINE=1`: calls, p50 and p99 for each second of the run (stalls show here), the
 * server's full collections in it (`fullGcAt`, epoch ms as their lines arrived) and the CPU its
 * threads had in the second that ended then (`threads`): its main thread, and V8's helpers —
 * concurrent marking, parallel scavenges and the JIT, which take a core the main thread and
 * PostgreSQL share.
 */
function printTimeline(
  timeline: [number, number, string][],
  fullGcAt: number[],
  threads: ThreadsSample[],
): void {
  // A loop, not Math.min(...): a long run's calls are more arguments than the stack holds.
  let start = Number.POSITIVE_INFINITY;
  for (const [end] of timeline) start = Math.min(start, end);
  const secondOf = (performanceMs: number) => Math.floor((performanceMs - start) / 1000);
  const bySecond = new Map<number, number[]>();
  for (const [end, ms] of timeline) {
    const s = secondOf(end);
    const calls = bySecond.get(s);
    if (calls) calls.push(ms);
    else bySecond.set(s, [ms]);
  }
  const gcs = new Map<number, number>();
  for (const at of fullGcAt) {
    const s = secondOf(at - performance.timeOrigin);
    gcs.set(s, (gcs.get(s) ?? 0) + 1);
  }
  // Each reading's CPU shown at the second in which it was taken (the readings are ~1 s apart, so
  // a second may show none, or the later of two).
  const cpu = new Map<number, string>();
  for (let i = 1; i < threads.length; i++) {
    const b = threads[i] as ThreadsSample;
    const { mainMs, helpersMs } = threadsBetween(threads[i - 1] as ThreadsSample, b);
    cpu.set(
      secondOf(b.at),
      `, CPU ms main ${String(mainMs).padStart(4)} helpers ${String(helpersMs).padStart(4)}`,
    );
  }
  for (const [s, times] of [...bySecond.entries()].sort((a, b) => a[0] - b[0])) {
    times.sort((a, b) => a - b);
    const gc = `${cpu.get(s) ?? ''}${gcs.get(s) ? `, full GC ×${gcs.get(s)}` : ''}`;
    console.log(
      `  second ${String(s).padStart(3)}: ${String(times.length).padStart(5)} calls, p50 ${quantile(times, 0.5).toFixed(0).padStart(4)} ms, p99 ${quantile(times, 0.99).toFixed(0).padStart(4)} ms, max ${(times.at(-1) ?? 0).toFixed(0).padStart(4)} ms${gc}`,
    );
  }
}

/** The memory outside V8's heap: its last third's median at most this above its first third's. */
const OUTSIDE_HEAP_GROWTH_MB = 10;
/** The live heap at rest, before and after the run: grown by at most 10 % or 5 MB, whichever is more. */
const restFlat = (before: number, after: number) => after - before <= Math.max(5, before * 0.1);

/** The highest or lowest (`pick`) of each third of `samples`: first, middle, last (NaN: none). */
function thirds(
  samples: readonly number[],
  pick: (...values: number[]) => number,
): { start: number; middle: number; end: number } {
  const third = samples.length / 3;
  const of = (from: number, to: number) => {
    const values = samples.slice(Math.floor(from), Math.floor(to)).filter(Number.isFinite);
    return values.length > 0 ? pick(...values) : Number.NaN;
  };
  return { start: of(0, third), middle: of(third, 2 * third), end: of(2 * third, samples.length) };
}

function print(r: Result): boolean {
  const f = (n: number) => n.toFixed(1);
  console.log(
    `\n${r.label}: ${CONNECTIONS} connections, ${SECONDS} s${READS_ONLY ? ', reads alone' : ''} after ${WARMUP} s of warm-up (load average at the end ${r.loadAvg})`,
  );
  console.log(
    `  ${'kind'.padEnd(14)} ${'calls'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
  );
  for (const k of r.perKind)
    console.log(
      `  ${k.kind.padEnd(14)} ${String(k.n).padStart(8)} ${f(k.p50).padStart(8)} ${f(k.p99).padStart(8)}`,
    );
  const { before, after } = r.atRest;
  const heapFlat = restFlat(before.heapUsed, after.heapUsed);
  const outsideFlat = r.outsideHeap.end - r.outsideHeap.start <= OUTSIDE_HEAP_GROWTH_MB;
  const lines: [string, string, string, boolean | null][] = [
    ['requests', String(r.requests), '', null],
    ['throughput', `${f(r.rps)} req/s`, '', null],
    ['errors', String(r.errors.length), 'bar = 0', r.errors.length === 0],
    [
      'CPU, % of a core: server, PostgreSQL, generator',
      `${r.cpu.server.toFixed(0)}, ${r.cpu.postgres.toFixed(0)}, ${r.cpu.generator.toFixed(0)}`,
      '',
      null,
    ],
    ["server's thread waiting for a CPU, % of run", r.cpu.serverWaiting.toFixed(0), '', null],
    ['p50 (all calls)', `${f(r.p50)} ms`, '', null],
    ['p99 (all calls)', `${f(r.p99)} ms`, `bar ≤ ${P99_BAR_MS} ms`, r.p99 <= P99_BAR_MS],
    ['RSS, highest of each third', `${f(r.rss.start)} → ${f(r.rss.middle)} → ${f(r.rss.end)} MB`, '', null],
    [
      "RSS outside V8's heap, median of each third",
      `${f(r.outsideHeap.start)} → ${f(r.outsideHeap.middle)} → ${f(r.outsideHeap.end)} MB`,
      'flat',
      outsideFlat,
    ],
    [
      `heap after full GC (${r.heap.count}), lowest of each third`,
      `${f(r.heap.start)} → ${f(r.heap.middle)} → ${f(r.heap.end)} MB`,
      '',
      null,
    ],
    [
      'heap used at rest after a full GC, before → after',
      `${f(before.heapUsed)} → ${f(after.heapUsed)} MB`,
      'flat',
      heapFlat,
    ],
    ['RSS at rest, before → after', `${f(before.rss)} → ${f(after.rss)} MB`, '', null],
  ];
  for (const [name, value, bar, ok] of lines)
    console.log(
      `  ${name.padEnd(46)} ${value.padStart(26)}   ${bar.padEnd(16)} ${ok === null ? '' : ok ? 'ok' : 'MISS'}`,
    );
  const seen = new Set<string>();
  for (const e of r.errors) {
    const key = `${e.kind.replace(/\d+/g, 'N')} ${e.status}`;
    if (seen.has(key) || seen.size >= 10) continue;
    seen.add(key);
    console.log(`  error: ${e.kind} → ${e.status} ${e.text}`);
  }
  return r.errors.length === 0 && r.p99 <= P99_BAR_MS && outsideFlat && heapFlat;
}

/**
 * CPU time so far of a process (or of one of its threads: `tid`) in ms: user + system, fields 14
 * and 15 of its stat.
 */
function cpuMs(pid: number, tid?: number): number {
  try {
    const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
    const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, 100 per second
  } catch {
    return 0;
  }
}

/**
 * How long a process's main thread was ready to run but waited for a CPU another process held, ms
 * so far (the second field of /proc/<pid>/task/<pid>/schedstat, Linux).
 */
function waitedForCpuMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

interface ThreadsSample {
  /** performance.now() of the reading. */
  at: number;
  pid: number;
  /** CPU so far of each thread (/proc/<pid>/task), ms. */
  byTid: Map<number, number>;
}

function threadsCpu(pid: number): ThreadsSample {
  const byTid = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) byTid.set(Number(tid), cpuMs(pid, Number(tid)));
  } catch {
    // the process has gone
  }
  return { at: performance.now(), pid, byTid };
}

/** CPU between two readings of the main thread and of the others (a thread that ended is left out). */
function threadsBetween(a: ThreadsSample, b: ThreadsSample): { mainMs: number; helpersMs: number } {
  let mainMs = 0;
  let helpersMs = 0;
  for (const [tid, ms] of b.byTid) {
    const used = ms - (a.byTid.get(tid) ?? 0);
    if (tid === b.pid) mainMs += used;
    else helpersMs += used;
  }
  return { mainMs, helpersMs };
}

/** CPU of the local PostgreSQL server's processes by pid (none when none is visible from here). */
function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        byPid.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/** PostgreSQL's CPU between two readings: of processes gone meanwhile, only what was read. */
function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of postgresCpu()) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** `BENCH_LOAD_COST`: each kind of the mix alone, its calls per second and CPU per call. */
async function cost(
  server: Server,
  label: string,
  seconds: number,
  counter?: StatementCounter,
): Promise<void> {
  const setup = new Client(server.base, 4);
  const world = await prepare(setup);
  setup.close();
  const pid = server.child.pid ?? 0;
  // What the server sends by itself (its timers: monitor checks, leases), taken off each kind's count.
  let background = 0;
  let backgroundTrips = 0;
  if (counter) {
    const [n0, r0, t0] = [counter.statements(), counter.roundTrips(), Date.now()];
    await new Promise((r) => setTimeout(r, 3000));
    background = (counter.statements() - n0) / (Date.now() - t0);
    backgroundTrips = (counter.roundTrips() - r0) / (Date.now() - t0);
  }
  console.log(`\n${label}: each kind alone, 8 connections, ${seconds} s (after 2 s not counted)`);
  console.log(
    `  ${'kind'.padEnd(44)} ${'calls/s'.padStart(8)} ${'server ms'.padStart(10)} ${'young KB'.padStart(9)} ${'postgres ms'.padStart(12)}${counter ? ' statements'.padStart(11) + ' round trips'.padStart(12) : ''}`,
  );
  const only = process.env.BENCH_LOAD_KINDS;
  for (const kind of MIX.filter((k) => !only || k.name.includes(only))) {
    const role = kind.roles === 'anyone' ? null : (kind.roles[0] as Role);
    const client = new Client(server.base, 8);
    let calls = 0;
    const timed: CallContext['timed'] = async (_k, method, url, body) => {
      const answer = await client.call(method, url, role ? world.tokens[role] : null, body);
      calls++;
      return answer;
    };
    const loop = async (until: number) => {
      while (Date.now() < until) await kind.run({ world, token: role ? world.tokens[role] : '', timed });
    };
    await Promise.all(Array.from({ length: 8 }, () => loop(Date.now() + 2000)));
    calls = 0;
    const y0 = server.scavenges.freedMb;
    const [s0, p0, n0, r0, t0] = [
      cpuMs(pid),
      postgresCpu(),
      counter?.statements() ?? 0,
      counter?.roundTrips() ?? 0,
      Date.now(),
    ];
    await Promise.all(Array.from({ length: 8 }, () => loop(t0 + seconds * 1000)));
    const [s1, pg, n1, r1, t1] = [
      cpuMs(pid),
      postgresCpuSince(p0),
      counter?.statements() ?? 0,
      counter?.roundTrips() ?? 0,
      Date.now(),
    ];
    const youngKb = ((server.scavenges.freedMb - y0) * 1024) / calls;
    client.close();
    // A kind of two calls (an order created, then paid) counts per call; the order's pair is both.
    const perCall = (n: number, perMs: number) => ((n - perMs * (t1 - t0)) / calls).toFixed(1);
    const statements = counter
      ? `${perCall(n1 - n0, background).padStart(11)}${perCall(r1 - r0, backgroundTrips).padStart(12)}`
      : '';
    console.log(
      `  ${kind.name.padEnd(44)} ${(calls / ((t1 - t0) / 1000)).toFixed(0).padStart(8)} ${((s1 - s0) / calls).toFixed(3).padStart(10)} ${youngKb.toFixed(0).padStart(9)} ${(pg / calls).toFixed(3).padStart(12)}${statements}`,
    );
  }
}

const COST_SECONDS = Number(process.env.BENCH_LOAD_COST ?? 0);

async function onSqlite(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-load-'));
  try {
    const server = await startServer(dir, '');
    try {
      if (COST_SECONDS > 0) {
        await cost(server, 'SQLite', COST_SECONDS);
        return true;
      }
      return print(await measure(server, 'SQLite'));
    } finally {
      await stop(server.child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<boolean> {
  const pg = (await import('pg')).default;
  const schema = 'bench_load';
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.query(`create schema ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  // Costs: the server's statements counted on their way to PostgreSQL (pg-statement-counter.ts).
  const counted = COST_SECONDS > 0 ? await countedUrl(scoped.toString()) : undefined;
  const counter = counted?.counter;
  const serverUrl = counted?.url ?? scoped.toString();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-load-pg-'));
  try {
    const server = await startServer(dir, serverUrl);
    server.others = [];
    for (let i = 1; i < Number(process.env.BENCH_LOAD_PROCESSES ?? 1); i++)
      server.others.push(await startServer(dir, serverUrl));
    try {
      if (COST_SECONDS > 0) {
        await cost(server, 'PostgreSQL', COST_SECONDS, counter);
        return true;
      }
      return print(await measure(server, 'PostgreSQL'));
    } finally {
      for (const o of server.others) await stop(o.child);
      await stop(server.child);
    }
  } finally {
    await counter?.close();
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\``);
  console.log(`load bench: ${os.cpus().length} cores, load average ${load()}, Node ${process.version}`);
  console.log(`machine speed now: ${await machineSpeed()}`);
  let ok = true;
  if (!process.env.BENCH_LOAD_SKIP_SQLITE) ok = (await onSqlite()) && ok;
  if (PG_URL) ok = (await onPostgres(PG_URL)) && ok;
  // The speed moves within minutes here: said again at the end, a run is read against both.
  console.log(`\nmachine speed at the end: ${await machineSpeed()}`);
  console.log(ok ? '\nevery bar met' : '\nMISSED a bar');
  if (!ok) process.exitCode = 1;
}

const cleanup = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.once('SIGINT', () => {
  cleanup();
  process.exit(130);
});
main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  })
  .finally(cleanup);
