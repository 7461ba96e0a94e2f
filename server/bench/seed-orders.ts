/**
 * The bench seeder: 1 000 000 orders (and the 50 stores, their goods, 200 runners and 100 000
 * users they refer to) in a database the server has migrated, for the list, count, paging and
 * export figures of BENCHMARKS.md.
 *
 *   cd server && npx tsx bench/seed-orders.ts [--file data/wanxiang.db] [--count 1000000]
 *   cd server && npx tsx bench/seed-orders.ts --postgres postgres://user@host/db [--count …]
 *
 * Without --file it makes a fresh DATA_DIR under the system temp folder and prints it: start the
 * server with that DATA_DIR to serve the orders. The database is migrated with the server's own
 * runner first (an empty file becomes a full schema); the orders table must be empty.
 *
 * SQLite: better-sqlite3 directly, multi-row prepared INSERTs, one transaction per 50 000 rows,
 * `journal_mode=WAL, synchronous=OFF` during the load (synchronous restored after). PostgreSQL:
 * INSERT … SELECT FROM unnest($1::bigint[], …) — one array per column, 10 000 rows a statement.
 *
 * Storage follows the engine exactly: tables and columns from core's registry (tableName,
 * columnName, the engine's modelOf for the few fields kept elsewhere), epoch-ms BIGINT times,
 * booleans 0/1, JSON as text, values converted by the engine's toDbValue; every row is checked
 * against the engine's toDbValues on a sample before the load starts.
 *
 * Orders: createdAt spread over the last year, increasing with the id; statuses mostly completed
 * or cancelled with every in-progress status represented; money adds up (goods + packing +
 * delivery − 满减 − coupon = payable); a timestamp per status reached; runners on delivery orders
 * from `delivering` on.
 *
 * The rows come from the demo's generators (`@wanxiang/demo`): its random numbers, names, mobile
 * numbers, places and addresses, brands and menus, order numbers, charges and reasons — and the
 * status walk is core's order machine (`orderWalk`, from `lifecycleOf` over the orders
 * definition), which stamps the time field of every step taken. Only the weights are this
 * file's: how often an order ends where, and how long its steps take.
 */
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CouponInput,
  chinaCompactStamp,
  type FieldDef,
  getResource,
  JSON_TYPES,
  priceOrder,
  type ReductionActivity,
  type ResourceDef,
  stampsOf,
} from '@wanxiang/core';
import {
  BRANDS,
  CANCEL_REASONS,
  CANCELLED,
  cancelStep,
  DAY,
  type Fulfilment,
  homeAddress,
  landline,
  MINUTE,
  mobile,
  near,
  ORDER_STAMPS,
  orderAmounts,
  orderFees,
  orderWalk,
  PLACES,
  pad,
  personName,
  REMARKS,
  Rng,
  skusOf,
} from '@wanxiang/demo';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { engineExtensions } from '../src/domain/areas.js';
import { hashPassword } from '../src/domain/auth/passwords.js';
import { creationDefaults, modelOf, toDbValue, toDbValues } from '../src/resources/storage.js';
import { SQL_TYPES } from '../src/resources/table-spec.js';

export interface SeedOrdersOptions {
  /** The SQLite file (created and migrated when new). */
  file?: string;
  /** A PostgreSQL URL instead of a file. */
  postgres?: string;
  count?: number;
  stores?: number;
  users?: number;
  /** Rows per transaction (SQLite). */
  batch?: number;
  /** The end of the year of orders (default now). */
  now?: number;
  log?: (line: string) => void;
}

export interface SeedOrdersReport {
  orders: number;
  users: number;
  stores: number;
  ms: number;
  ordersPerSecond: number;
  /** SQLite: the database file after the WAL is checkpointed. */
  fileBytes: number | null;
}

const SEED = 20_251_111;
let rng = new Rng(SEED);

/** A weighted choice over fixed pairs, with the cumulative table made once (a million draws). */
function weighted<T>(pairs: readonly (readonly [T, number])[]): () => T {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  let sum = 0;
  const cumulative = pairs.map(([v, w]) => {
    sum += w;
    return [v, sum / total] as const;
  });
  return () => {
    const r = rng.next();
    for (const [v, c] of cumulative) if (r < c) return v;
    return (cumulative.at(-1) as readonly [T, number])[0];
  };
}

// ---- weights: where orders end and how long their steps take -----------------------------------

/** Mostly finished orders; every in-progress status present (stuck or live ones a back office filters for). */
const statusOf = weighted<string>([
  ['completed', 82],
  [CANCELLED, 8],
  ['delivered', 2.5],
  ['delivering', 1.5],
  ['paid', 1.4],
  ['ready', 1.2],
  ['preparing', 1.2],
  ['accepted', 1.2],
  ['pending_payment', 1],
]);
/** Where a cancelled order stood: mostly unpaid or just paid, some once the kitchen had it. */
const cancelledFrom = weighted<string>([
  ['pending_payment', 2],
  ['paid', 2],
  ['accepted', 1],
  ['preparing', 1],
]);
const fulfilmentOf = weighted<Fulfilment>([
  ['delivery', 62],
  ['pickup', 18],
  ['dineIn', 20],
]);
const payOf = weighted([
  ['wechat', 64],
  ['balance', 18],
  ['card', 8],
  ['cash', 10],
] as const);
const deliveryPayOf = weighted([
  ['wechat', 2],
  ['balance', 1],
  ['card', 1],
] as const);
/** The most minutes a step of core's machine takes (at least one); 5 for those not named. */
const STEP_MINUTES: Readonly<Record<string, number>> = { ready: 20, deliver: 40, complete: 40 };

/** An order's walk on core's machine, made once per fulfilment and end: its steps' durations and stamps. */
interface Walk {
  steps: { minutes: number; stamps: readonly string[] }[];
  /** The fields the cancel step stamps, for a cancelled order. */
  cancel: readonly string[] | null;
}
/** Walks by fulfilment, then by status reached and whether cancelled there (a million look-ups). */
const walks = new Map<Fulfilment, Map<string, Walk | null>[]>();

function walkOf(fulfilment: Fulfilment, reached: string, cancelled: boolean): Walk | null {
  let byEnd = walks.get(fulfilment);
  if (!byEnd) {
    byEnd = [new Map(), new Map()];
    walks.set(fulfilment, byEnd);
  }
  const cache = byEnd[Number(cancelled)] as Map<string, Walk | null>;
  let walk = cache.get(reached);
  if (walk === undefined) {
    const path = orderWalk(fulfilment, reached);
    walk = path && {
      steps: path.steps.map((step) => ({ minutes: STEP_MINUTES[step.name] ?? 5, stamps: stampsOf(step) })),
      cancel: cancelled ? stampsOf(cancelStep(fulfilment, reached)) : null,
    };
    cache.set(reached, walk);
  }
  return walk;
}

interface Store {
  id: number;
  packingFeeFen: number;
  deliveryFeeFen: number;
  goods: { id: number; name: string; sku: string | null; price: number }[];
}

// ---- the column order of a table, and rows as column values -------------------------------------

interface Table {
  def: ResourceDef;
  table: string;
  columns: string[];
  /** Per column: the field (null for the system columns), converting with the engine's toDbValue. */
  convert: ((value: unknown) => unknown)[];
  names: string[];
  defaults: Record<string, unknown>;
}

const BENCH_REDUCTION: ReductionActivity = {
  tiers: [
    { thresholdFen: 3000, reduceFen: 300 },
    { thresholdFen: 5000, reduceFen: 600 },
  ],
  stackableWithCoupon: true,
};
const BENCH_COUPON: CouponInput = { kind: 'cash', valueFen: 500 };

// The areas' storage of their resources (users' password hash column, roles kept elsewhere).
engineExtensions();

function tableOf(name: string): Table {
  const def = getResource(name);
  const model = modelOf(def);
  const columns = ['id', 'created_at', 'updated_at'];
  const names = ['id', 'createdAt', 'updatedAt'];
  const convert: ((value: unknown) => unknown)[] = [(v) => v, (v) => v, (v) => v];
  for (const fs of model.stored) {
    columns.push(fs.column as string);
    names.push(fs.name);
    const field: FieldDef = fs.field;
    // Text and numbers are stored as they are (toDbValue's identity); JSON and flags convert.
    convert.push(
      JSON_TYPES.has(field.type) || field.type === 'boolean' ? (v) => toDbValue(field, v) : (v) => v ?? null,
    );
  }
  return { def, table: model.table, columns, convert, names, defaults: creationDefaults(model) };
}

function toValues(t: Table, row: Record<string, unknown>): unknown[] {
  const out = new Array(t.columns.length);
  for (let i = 0; i < t.columns.length; i++) {
    const name = t.names[i] as string;
    const v = row[name] === undefined ? t.defaults[name] : row[name];
    out[i] = (t.convert[i] as (value: unknown) => unknown)(v ?? null);
  }
  return out;
}

/** The rows are exactly what the engine would store: compared on a sample with its toDbValues. */
function assertEngineShape(t: Table, rows: Record<string, unknown>[]): void {
  const model = modelOf(t.def);
  for (const row of rows) {
    const { id, createdAt, updatedAt, ...fields } = row;
    const expected: Record<string, unknown> = {
      ...toDbValues(model, { ...t.defaults, ...fields }),
      id,
      created_at: createdAt,
      updated_at: updatedAt,
    };
    const values = toValues(t, row);
    t.columns.forEach((column, i) => {
      const want = expected[column] ?? null;
      if (JSON.stringify(values[i]) !== JSON.stringify(want))
        throw new Error(
          `${t.table}.${column}: ${JSON.stringify(values[i])} ≠ engine ${JSON.stringify(want)}`,
        );
    });
  }
}

// ---- generators ----------------------------------------------------------------------------------

/** Ids continue after the rows a table already holds (an admin created by a first start …). */
type Bases = Record<'stores' | 'goodsCategories' | 'goods' | 'runners' | 'users', number>;

function* storeRows(count: number, start: number, base: number): Generator<Record<string, unknown>> {
  for (let i = 0; i < count; i++) {
    const brand = BRANDS[i % BRANDS.length] as (typeof BRANDS)[number];
    const branch = brand.branches[
      Math.floor(i / BRANDS.length) % brand.branches.length
    ] as (typeof brand.branches)[number];
    const place = PLACES.find((p) => p.city === branch.city && p.district === branch.district) ?? PLACES[0];
    const point = near(rng, place?.lng ?? 120.13, place?.lat ?? 30.27, 3000);
    yield {
      id: base + i + 1,
      createdAt: start - 30 * DAY + i * MINUTE,
      updatedAt: start - 30 * DAY + i * MINUTE,
      name: `${brand.name}（${branch.city}${pad(i + 1)}号店）`,
      phone: landline(rng, branch.city),
      address: `${branch.city}市${branch.district}${branch.street}${branch.no + i}号`,
      lng: point.lng,
      lat: point.lat,
      businessHours: brand.hours,
      status: i % 17 === 16 ? 'paused' : 'open',
      deliveryRadiusM: 3000,
      minOrderFen: brand.minOrder,
      deliveryFeeFen: brand.deliveryFee,
      packingFeeFen: brand.packingFee,
      autoAccept: i % 2 === 0,
    };
  }
}

function* userRows(
  count: number,
  base: number,
  start: number,
  span: number,
  passwordHash: string,
): Generator<Record<string, unknown>> {
  for (let i = 0; i < count; i++) {
    const at = start - 60 * DAY + Math.floor((i * (span + 60 * DAY)) / count);
    yield {
      id: base + i + 1,
      createdAt: at,
      updatedAt: at,
      username: `bench_u${pad(base + i + 1, 6)}`,
      password: passwordHash,
      nickname: personName(rng).name,
      phone: mobile(rng),
      email: null,
      avatar: null,
      status: 'active',
      balanceFen: 0,
      points: 0,
      memberLevelId: null,
      lastLoginAt: null,
    };
  }
}

interface People {
  /** Users base + 1 … base + count. */
  userBase: number;
  users: number;
  /** Delivery addresses, the user's at its index (modulo: a pool of them serves 100 000 users). */
  addresses: readonly string[];
  runnerBase: number;
  runners: number;
}

function orderRow(
  id: number,
  createdAt: number,
  stores: readonly Store[],
  people: People,
): Record<string, unknown> {
  const store = stores[Math.floor(rng.next() * stores.length)] as Store;
  const status = statusOf();
  // Where the order got on core's machine; a status its fulfilment never reaches (a pickup order
  // delivering) makes it a delivery order.
  const reached = status === CANCELLED ? cancelledFrom() : status;
  let fulfilment = fulfilmentOf();
  let walk = walkOf(fulfilment, reached, status === CANCELLED);
  if (!walk) {
    fulfilment = 'delivery';
    walk = walkOf(fulfilment, reached, status === CANCELLED);
    if (!walk) throw new Error(`no order reaches ${reached}`);
  }
  const lines = rng.int(1, 3);
  const items: { goodsId: number; name: string; sku: string | null; qty: number; unitPriceFen: number }[] =
    [];
  for (let k = 0; k < lines; k++) {
    const g = store.goods[(id + k * 3) % store.goods.length] as Store['goods'][number];
    const qty = rng.next() < 0.8 ? 1 : 2;
    items.push({ goodsId: g.id, name: g.name, sku: g.sku, qty, unitPriceFen: g.price });
  }
  // Priced by core's one pricing rule: every store runs 满30减3 / 满50减6, one order in ten has a ¥5 coupon.
  const money = orderAmounts(
    priceOrder({
      lines: items,
      ...orderFees(fulfilment, store),
      activity: BENCH_REDUCTION,
      coupon: rng.next() < 0.1 ? BENCH_COUPON : null,
    }),
  );

  const stamps: Record<string, number | null> = {};
  for (const field of ORDER_STAMPS) stamps[field] = null;
  let t = createdAt;
  for (const step of walk.steps) {
    t += rng.int(1, step.minutes) * MINUTE;
    for (const field of step.stamps) stamps[field] = t;
  }
  const paid = stamps.paidAt !== null;
  let cancelReason: string | null = null;
  if (walk.cancel) {
    t += rng.int(1, 15) * MINUTE;
    for (const field of walk.cancel) stamps[field] = t;
    cancelReason = (
      paid ? CANCEL_REASONS.merchant[id % CANCEL_REASONS.merchant.length] : CANCEL_REASONS.system[0]
    ) as string;
  }
  const userIndex = Math.floor(rng.next() * people.users);
  return {
    id,
    createdAt,
    updatedAt: t,
    orderNo: `${chinaCompactStamp(createdAt)}${pad(id % 10_000_000, 7)}`,
    storeId: store.id,
    userId: people.userBase + 1 + userIndex,
    items,
    ...money,
    paidFen: paid ? money.payableFen : 0,
    refundedFen: status === CANCELLED && paid ? money.payableFen : 0,
    payMethod: fulfilment === 'delivery' ? deliveryPayOf() : payOf(),
    fulfilment,
    address: fulfilment === 'delivery' ? people.addresses[userIndex % people.addresses.length] : null,
    remark: id % 3 === 0 ? REMARKS[id % REMARKS.length] : null,
    // From delivering on, a runner carries it.
    runnerId: stamps.deliveringAt !== null ? people.runnerBase + 1 + ((id * 7) % people.runners) : null,
    status,
    ...stamps,
    cancelReason,
  };
}

interface Plan {
  stores: Store[];
  storeRows: Record<string, unknown>[];
  categoryRows: Record<string, unknown>[];
  goodsRows: Record<string, unknown>[];
  runnerRows: Record<string, unknown>[];
}

function catalogue(storeCount: number, start: number, runnerCount: number, bases: Bases): Plan {
  const storeRowsList = [...storeRows(storeCount, start, bases.stores)];
  const stores: Store[] = [];
  const categoryRows: Record<string, unknown>[] = [];
  const goodsRows: Record<string, unknown>[] = [];
  storeRowsList.forEach((s, i) => {
    const at = s.createdAt as number;
    // The brand's menu, as the demo's stores have it: its sections and items, SKUs in fen.
    const brand = BRANDS[i % BRANDS.length] as (typeof BRANDS)[number];
    const goods: Store['goods'] = [];
    brand.menu.forEach(([section, items], c) => {
      const category = {
        id: bases.goodsCategories + categoryRows.length + 1,
        createdAt: at,
        updatedAt: at,
        storeId: s.id,
        name: section,
        sort: (c + 1) * 10,
        status: 'enabled',
      };
      categoryRows.push(category);
      items.forEach((item, k) => {
        const sku = skusOf(item)[0] as ReturnType<typeof skusOf>[number];
        const id = bases.goods + goodsRows.length + 1;
        goodsRows.push({
          id,
          createdAt: at,
          updatedAt: at,
          storeId: s.id,
          categoryId: category.id,
          name: item.name,
          description: item.description,
          priceFen: sku.priceFen,
          stock: 999,
          status: 'onSale',
          sort: (k + 1) * 10,
        });
        goods.push({ id, name: item.name, sku: sku.name, price: sku.priceFen });
      });
    });
    stores.push({
      id: s.id as number,
      packingFeeFen: s.packingFeeFen as number,
      deliveryFeeFen: s.deliveryFeeFen as number,
      goods,
    });
  });
  const runnerRows = Array.from({ length: runnerCount }, (_v, i) => ({
    id: bases.runners + i + 1,
    createdAt: start - 20 * DAY,
    updatedAt: start - 20 * DAY,
    name: personName(rng).name,
    // Unique: a mobile prefix and the runner's id.
    phone: `${mobile(rng).slice(0, 3)}${pad(bases.runners + i + 1, 8)}`,
    status: rng.pick(['idle', 'offline', 'delivering']),
    storeIds: [],
    vehicle: 'ebike',
    todayCount: 0,
  }));
  return { stores, storeRows: storeRowsList, categoryRows, goodsRows, runnerRows };
}

// ---- SQLite --------------------------------------------------------------------------------------

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function sqliteLoad(
  db: SqliteDatabase.Database,
  t: Table,
  rows: Iterable<Record<string, unknown>>,
  batch: number,
): number {
  const perStatement = Math.max(1, Math.min(200, Math.floor(30_000 / t.columns.length)));
  const head = `insert into ${quote(t.table)} (${t.columns.map(quote).join(', ')}) values `;
  const tuple = `(${t.columns.map(() => '?').join(', ')})`;
  const many = db.prepare(head + Array(perStatement).fill(tuple).join(', '));
  const one = db.prepare(head + tuple);
  let n = 0;
  let params: unknown[] = [];
  let pending = 0;
  let inBatch = 0;
  db.exec('begin');
  for (const row of rows) {
    const values = toValues(t, row);
    for (const v of values) params.push(v);
    pending++;
    n++;
    if (pending === perStatement) {
      many.run(params);
      params = [];
      pending = 0;
    }
    if (++inBatch >= batch && pending === 0) {
      db.exec('commit');
      db.exec('begin');
      inBatch = 0;
    }
  }
  for (let i = 0; i < pending; i++) one.run(params.slice(i * t.columns.length, (i + 1) * t.columns.length));
  db.exec('commit');
  return n;
}

// ---- PostgreSQL ----------------------------------------------------------------------------------

async function pgLoad(
  client: pg.Client,
  t: Table,
  rows: Iterable<Record<string, unknown>>,
  perStatement = 10_000,
): Promise<number> {
  const model = modelOf(t.def);
  const types = t.columns.map((column) => {
    if (column === 'id' || column === 'created_at' || column === 'updated_at')
      return column === 'id' ? 'integer' : 'bigint';
    const fs = model.stored.find((f) => f.column === column);
    return SQL_TYPES[fs?.type ?? 'text'];
  });
  const sql = `insert into ${quote(t.table)} (${t.columns.map(quote).join(', ')}) select * from unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  let columns: unknown[][] = t.columns.map(() => []);
  let n = 0;
  const flush = async () => {
    if ((columns[0] as unknown[]).length === 0) return;
    await client.query(sql, columns);
    columns = t.columns.map(() => []);
  };
  for (const row of rows) {
    const values = toValues(t, row);
    for (let i = 0; i < values.length; i++) (columns[i] as unknown[]).push(values[i]);
    n++;
    if ((columns[0] as unknown[]).length >= perStatement) await flush();
  }
  await flush();
  // Explicit ids do not move the identity sequence.
  await client.query(
    `select setval(pg_get_serial_sequence($1, 'id'), (select max(id) from ${quote(t.table)}))`,
    [t.table],
  );
  return n;
}

// ---- the seeder ----------------------------------------------------------------------------------

export async function seedOrders(options: SeedOrdersOptions): Promise<SeedOrdersReport> {
  const count = options.count ?? 1_000_000;
  const storeCount = options.stores ?? 50;
  const userCount = options.users ?? 100_000;
  const runnerCount = 200;
  const batch = options.batch ?? 50_000;
  const log = options.log ?? ((line: string) => console.log(line));
  const now = options.now ?? Date.now();
  const span = 365 * DAY;
  const start = now - span;
  rng = new Rng(SEED, 'catalogue');

  // The server's own migration runner brings the database to the current schema.
  const handle = openDatabase(
    options.postgres
      ? { dialect: 'postgres', url: options.postgres, poolSize: 2 }
      : { dialect: 'sqlite', file: options.file as string },
  );
  const bases = { stores: 0, goodsCategories: 0, goods: 0, runners: 0, users: 0 } satisfies Bases;
  try {
    await migrateToLatest(handle.db, handle.dialect);
    for (const name of Object.keys(bases) as (keyof Bases)[]) {
      const top = await sql<{
        top: number | string | null;
      }>`select max(id) as top from ${sql.table(modelOf(getResource(name)).table)}`.execute(handle.db);
      bases[name] = Number(top.rows[0]?.top ?? 0);
    }
    const orders = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(modelOf(getResource('orders')).table)}`.execute(handle.db);
    if (Number(orders.rows[0]?.n ?? 0) > 0)
      throw new Error('the orders table is not empty: seed into a fresh database');
  } finally {
    await handle.close();
  }

  const tables = {
    stores: tableOf('stores'),
    goodsCategories: tableOf('goodsCategories'),
    goods: tableOf('goods'),
    runners: tableOf('runners'),
    users: tableOf('users'),
    orders: tableOf('orders'),
  };
  const plan = catalogue(storeCount, start, runnerCount, bases);
  const people: People = {
    userBase: bases.users,
    users: userCount,
    addresses: Array.from({ length: Math.min(userCount, 5000) }, () => homeAddress(rng, rng.pick(PLACES))),
    runnerBase: bases.runners,
    runners: runnerCount,
  };
  // Nobody signs in as a bench user: one hash of a random password serves them all.
  const passwordHash = await hashPassword(`bench-${Math.random().toString(36).slice(2)}-${Date.now()}`);
  const sampleUsers = [...userRows(2, bases.users, start, span, passwordHash)];
  assertEngineShape(tables.users, sampleUsers);
  assertEngineShape(tables.stores, plan.storeRows.slice(0, 2));
  assertEngineShape(tables.goods, plan.goodsRows.slice(0, 2));
  assertEngineShape(tables.runners, plan.runnerRows.slice(0, 2));
  assertEngineShape(tables.orders, [
    orderRow(1, start, plan.stores, people),
    orderRow(2, start + 1, plan.stores, people),
  ]);
  rng = new Rng(SEED, 'orders');

  const step = span / count;
  function* orders(): Generator<Record<string, unknown>> {
    for (let i = 0; i < count; i++) {
      // Increasing with the id: the i-th order falls in the i-th slice of the year.
      const createdAt = Math.floor(start + i * step + rng.next() * step * 0.9);
      yield orderRow(i + 1, createdAt, plan.stores, people);
    }
  }

  const began = performance.now();
  let ordersMs = 0;
  let fileBytes: number | null = null;
  if (options.postgres) {
    const client = new pg.Client({ connectionString: options.postgres });
    await client.connect();
    try {
      await client.query('begin');
      await pgLoad(client, tables.stores, plan.storeRows);
      await pgLoad(client, tables.goodsCategories, plan.categoryRows);
      await pgLoad(client, tables.goods, plan.goodsRows);
      await pgLoad(client, tables.runners, plan.runnerRows);
      await pgLoad(client, tables.users, userRows(userCount, bases.users, start, span, passwordHash));
      await client.query('commit');
      log(`catalogue and ${userCount} users in ${Math.round(performance.now() - began)} ms`);
      const t0 = performance.now();
      await client.query('begin');
      await client.query(`set local maintenance_work_mem = '512MB'`);
      await client.query('set local synchronous_commit = off');
      // The secondary indexes are dropped and rebuilt from their own definitions in the same
      // transaction: one sorted build each is far cheaper than a million inserts into nine trees.
      const { rows: indexes } = await client.query<{ name: string; definition: string }>(
        `select indexname as name, indexdef as definition from pg_indexes
          where schemaname = current_schema() and tablename = $1
            and indexname not in (select conname from pg_constraint where contype = 'p')`,
        [tables.orders.table],
      );
      for (const index of indexes) await client.query(`drop index ${quote(index.name)}`);
      await pgLoad(client, tables.orders, orders());
      const loaded = performance.now();
      for (const index of indexes) await client.query(index.definition);
      log(
        `orders inserted in ${((loaded - t0) / 1000).toFixed(1)} s, ${indexes.length} indexes rebuilt in ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      );
      await client.query('commit');
      ordersMs = performance.now() - t0;
      await client.query(`analyze ${quote(tables.orders.table)}`);
    } finally {
      await client.end();
    }
  } else {
    const file = options.file as string;
    const db = new SqliteDatabase(file);
    try {
      const synchronous = db.pragma('synchronous', { simple: true });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = OFF');
      db.pragma('cache_size = -512000');
      db.pragma('temp_store = MEMORY');
      db.pragma('threads = 2');
      sqliteLoad(db, tables.stores, plan.storeRows, batch);
      sqliteLoad(db, tables.goodsCategories, plan.categoryRows, batch);
      sqliteLoad(db, tables.goods, plan.goodsRows, batch);
      sqliteLoad(db, tables.runners, plan.runnerRows, batch);
      sqliteLoad(db, tables.users, userRows(userCount, bases.users, start, span, passwordHash), batch);
      log(`catalogue and ${userCount} users in ${Math.round(performance.now() - began)} ms`);
      const t0 = performance.now();
      // As on PostgreSQL: the orders' indexes are rebuilt from their own SQL after the load.
      const indexes = db
        .prepare(
          `select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`,
        )
        .all(tables.orders.table) as { name: string; sql: string }[];
      for (const index of indexes) db.exec(`drop index ${quote(index.name)}`);
      sqliteLoad(db, tables.orders, orders(), batch);
      const loaded = performance.now();
      for (const index of indexes) db.exec(index.sql);
      log(
        `orders inserted in ${((loaded - t0) / 1000).toFixed(1)} s, ${indexes.length} indexes rebuilt in ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      );
      ordersMs = performance.now() - t0;
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    fileBytes = statSync(file).size;
  }
  const ms = performance.now() - began;
  return {
    orders: count,
    users: userCount,
    stores: storeCount,
    ms: Math.round(ms),
    ordersPerSecond: Math.round(count / (ordersMs / 1000)),
    fileBytes,
  };
}

// ---- command line --------------------------------------------------------------------------------

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const postgres = argument('postgres');
  const count = Number(argument('count') ?? 1_000_000);
  let file = argument('file');
  let dataDir: string | null = null;
  if (!postgres && !file) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-'));
    file = path.join(dataDir, 'wanxiang.db');
  }
  console.log(`seeding ${count.toLocaleString('en')} orders into ${postgres ? 'PostgreSQL' : file}`);
  const r = await seedOrders({ file, postgres, count });
  console.log(
    `orders: ${r.orders.toLocaleString('en')} (+ ${r.users.toLocaleString('en')} users, ${r.stores} stores) — ` +
      `total ${(r.ms / 1000).toFixed(1)} s, orders at ${r.ordersPerSecond.toLocaleString('en')} rows/s` +
      (r.fileBytes === null ? '' : `, file ${(r.fileBytes / 1024 / 1024).toFixed(0)} MiB`),
  );
  if (dataDir) console.log(`DATA_DIR=${dataDir}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
