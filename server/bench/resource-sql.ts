/**
 * The admin list at scale: seeds N orders (default 1 000 000) through the engine's bulk insert,
 * then prints the query plans and timings of the list the bars of BENCHMARKS.md are about —
 * `GET /api/admin/orders?status=paid` (20 rows, newest first), its page 5 000, the keyset
 * continuation and the COUNT the cache avoids — the engine's own `list()` (parse, SQL,
 * conversion, relations, cached total), and the route through HTTP in-process (`app.inject`).
 *
 *   npx tsx --tsconfig server/tsconfig.json server/bench/resource-sql.ts [rows]
 *
 * SQLite in a temporary folder by default; BENCH_KEEP_DIR=<dir> keeps and reuses the seeded file.
 * BENCH_DATABASE_URL=postgres://… measures PostgreSQL instead, in the schema `wanxiang_bench`
 * (kept and reused; drop it when done).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getResource, lifecycleOf } from '@wanxiang/core';
import { CompiledQuery, sql } from 'kysely';
import { buildApp } from '../src/app.js';
import type { DatabaseConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { SqliteReader } from '../src/db/sqlite-reader.js';
import { engineExtensions } from '../src/domain/areas.js';
import { insertRows, ResourceEngine } from '../src/resources/index.js';
import { selectPage } from '../src/resources/query.js';
import { registerWireFunctions } from '../src/resources/sqlite-json.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
/** Every status of core's order machine. */
const STATUSES = lifecycleOf(getResource('orders')).states;

const pgUrl = process.env.BENCH_DATABASE_URL;
const keep = process.env.BENCH_KEEP_DIR;
const dir = keep ?? mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-'));
let database: DatabaseConfig;
if (pgUrl) {
  const url = new URL(pgUrl);
  url.searchParams.set('options', '-c search_path=wanxiang_bench');
  database = { dialect: 'postgres', url: url.toString(), poolSize: 4 };
  const setup = openDatabase({ dialect: 'postgres', url: pgUrl, poolSize: 1 });
  await sql`create schema if not exists wanxiang_bench`.execute(setup.db);
  await setup.close();
} else {
  database = { dialect: 'sqlite', file: path.join(dir, 'wanxiang.db') };
}
const dialect = database.dialect;

async function median(label: string, run: () => Promise<unknown>, times = 300): Promise<void> {
  for (let i = 0; i < 20; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const s = performance.now();
    await run();
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]?.toFixed(3);
  console.log(`  ${label}: median ${at(0.5)} ms, p99 ${at(0.99)} ms`);
}

const handle = openDatabase(database);
const db = handle.db;
const extensions = engineExtensions();
try {
  await migrateToLatest(db, dialect);
  const orders = getResource('orders');
  const existing = (await db.executeQuery(CompiledQuery.raw('select count(*) as n from orders'))).rows[0] as {
    n: number;
  };
  if (Number(existing.n) < ROWS) {
    const stores = await insertRows(
      db,
      getResource('stores'),
      Array.from({ length: 50 }, (_, i) => ({
        name: `门店${i + 1}-${Date.now()}`,
        phone: '010-12345678',
        address: `北京市朝阳区建国路 ${i + 1} 号`,
        status: 'open',
      })),
      { extensions },
    );
    const start = Date.UTC(2024, 0, 1);
    const t0 = performance.now();
    const BATCH = 20_000;
    for (let done = 0; done < ROWS; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, ROWS - done) }, (_, j) => {
        const i = done + j;
        return {
          orderNo: `W${String(i).padStart(9, '0')}`,
          storeId: stores[i % stores.length],
          items: [{ goodsId: 1, name: '宫保鸡丁', qty: 1, unitPriceFen: 2800 }],
          payableFen: 2800 + (i % 50) * 100,
          paidFen: 2800 + (i % 50) * 100,
          payMethod: 'wechat',
          fulfilment: 'delivery',
          status: STATUSES[(i * 7) % STATUSES.length],
          createdAt: start + i * 30_000,
        };
      });
      await insertRows(db, orders, rows, { returnIds: false, extensions });
    }
    console.log(
      `seeded ${ROWS} orders through insertRows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    await db.executeQuery(CompiledQuery.raw('analyze'));
  }

  // As the server runs it: on SQLite, reads on a connection of their own (sqlite-reader.ts).
  const reader = database.dialect === 'sqlite' ? new SqliteReader(database.file) : null;
  reader?.use(registerWireFunctions);
  const engine = new ResourceEngine({ db, dialect, now: () => Date.now(), reader, extensions });
  const compiled = (query: Record<string, string>, offset = 0, after: unknown[] | null = null) => {
    const q = engine.parseQuery(orders, query);
    return selectPage(db, dialect, orders, { query: q, after, limit: q.limit, offset }).compile();
  };
  const plan = async (label: string, c: CompiledQuery) => {
    const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
    const { rows } = await db.executeQuery(CompiledQuery.raw(`${explain} ${c.sql}`, [...c.parameters]));
    const lines = (rows as Record<string, string>[]).map((r) => r.detail ?? r['QUERY PLAN']);
    console.log(`\n${label}\n  ${c.sql}\n  plan: ${lines.map((l) => (l ?? '').trim()).join(' | ')}`);
  };

  const paid = compiled({ status: 'paid' });
  await plan('orders?status=paid (20 rows, newest first)', paid);
  await median('SQL', () => db.executeQuery(paid));
  const plain = compiled({});
  await plan('orders (20 rows, newest first, no filter)', plain);
  await median('SQL', () => db.executeQuery(plain));
  const deep = compiled({ status: 'paid', page: '5000' }, 4999 * 20);
  await plan('orders?status=paid&page=5000 (offset 99 980)', deep);
  await median('SQL', () => db.executeQuery(deep), 100);
  const deepAll = compiled({ page: '5000' }, 4999 * 20);
  await plan('orders?page=5000 (offset 99 980, no filter)', deepAll);
  await median('SQL', () => db.executeQuery(deepAll), 100);
  const last = (await db.executeQuery(paid)).rows.at(-1) as Record<string, unknown>;
  const keyset = compiled({ status: 'paid' }, 0, [last.created_at, last.id]);
  await plan('orders?status=paid&cursor=… (keyset)', keyset);
  await median('SQL', () => db.executeQuery(keyset));
  const count = CompiledQuery.raw("select count(*) as n from orders where status = 'paid'");
  await plan('the COUNT a total would cost without the cache', count);
  await median('SQL', () => db.executeQuery(count), 50);

  console.log('\nengine.list (parse, SQL, wire rows, relation names, cached total)');
  await median("list('status=paid')", () => engine.list(orders, { status: 'paid' }));
  await median(
    "list('status=paid&page=5000')",
    () => engine.list(orders, { status: 'paid', page: '5000' }),
    100,
  );
  reader?.close();
} finally {
  await handle.close();
}

// Through HTTP in-process (app.inject): sign-in check, permission, registry, envelope.
const app = await buildApp({
  port: 0,
  host: '127.0.0.1',
  dataDir: dir,
  database,
  adminPassword: 'bench-admin-password',
  captchaTestCode: 'bench',
  demoUsers: false,
  demoPassword: null,
  demoContent: false,
  sessionTtlMs: 3_600_000,
  listRowCacheBytes: 8 * 2 ** 20,
  uiDist: null,
  trustProxy: false,
  version: 'bench',
  logLevel: 'error',
  scheduler: false,
  now: () => Date.now(),
});
try {
  const captcha = (await app.inject({ method: 'GET', url: '/api/captcha/request' })).json().captchaId;
  const signin = await app.inject({
    method: 'POST',
    url: '/api/login/signin',
    payload: {
      username: 'admin',
      password: 'bench-admin-password',
      captchaId: captcha,
      captchaCode: 'bench',
    },
  });
  const headers = { authorization: `Bearer ${signin.json().data.token}` };
  console.log('\nHTTP in-process (app.inject, with the sign-in check and the cached total)');
  for (const url of ['/api/admin/orders?status=paid', '/api/admin/orders?status=paid&page=5000']) {
    await median(`GET ${url}`, async () => {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(res.body);
    });
  }
} finally {
  await app.close();
  if (!keep && !pgUrl) rmSync(dir, { recursive: true, force: true });
}
