/**
 * The per-day sums the income figures are made of, read with SQL aggregates that mean the same
 * on SQLite and PostgreSQL: each paid order's day is `(paid_at + 8 h) / 24 h` in integer
 * arithmetic on the epoch-ms column (a China day, core's chinaDayOf), grouped with its store.
 * Core's buildIncomeReport adds the days up into periods and stores.
 *
 * Speed (1 000 000 orders over a year, SQLite, 2 cores; bench/orders.ts): the index `orders
 * (paid_at, store_id, paid_fen, id)` (migration 0012_income) covers the query, so a month of days
 * reads ~80 000 index entries and no table rows (~50 ms; 3–4 s scanning the table without it).
 * On SQLite a statement runs on the event loop, so a range is read two days at a time with a turn
 * of the loop between: while years of days were computed back to back another client's list kept
 * a p99 of 12–26 ms (10–12 ms alone); with week-long slices it was 125 ms.
 */
import {
  CHINA_OFFSET_MS,
  chinaDayStart,
  DAY_MS,
  type DayRefunds,
  type DaySales,
  getResource,
  type ResolvedIncomeQuery,
} from '@wanxiang/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReadRows } from '../../resources/relations.js';
import { columnOf, modelOf } from '../../resources/storage.js';

/** Days read by one statement on SQLite (≈ 5 500 orders, a few ms, at the bench's million a year). */
const SLICE_DAYS = 2;

const model = (name: string) => {
  const def = getResource(name);
  if (!def) throw new Error(`the registry has no ${name}`);
  return modelOf(def);
};
const orders = model('orders');
const refunds = model('orderRefunds');
const stores = model('stores');
const col = (m: ReturnType<typeof model>, field: string) => {
  const column = columnOf(m, field);
  if (!column) throw new Error(`${m.table} has no column for ${field}`);
  return column;
};

/** `(t + 8 h) / 24 h`: integer division on both databases (bigint / bigint in PostgreSQL). */
const chinaDay = (time: RawBuilder<unknown>) =>
  sql<number>`(${time} + ${sql.lit(CHINA_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;

export interface SumsSource {
  db: Kysely<Database>;
  read: ReadRows;
  /** SQLite: statements block the event loop, so long ranges are read in slices. */
  sliced: boolean;
}

/** [from, to) instants of the range's days, cut into slices of whole days (one when not sliced). */
function slices(query: ResolvedIncomeQuery, sliced: boolean): [number, number][] {
  const out: [number, number][] = [];
  const step = sliced ? SLICE_DAYS : query.toDay - query.fromDay + 1;
  for (let day = query.fromDay; day <= query.toDay; day += step)
    out.push([chinaDayStart(day), chinaDayStart(Math.min(day + step, query.toDay + 1))]);
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function readSliced<T>(
  source: SumsSource,
  query: ResolvedIncomeQuery,
  statement: (from: number, to: number) => RawBuilder<T>,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const [i, [from, to]] of slices(query, source.sliced).entries()) {
    if (i > 0) await nextTurn();
    rows.push(...(await source.read(statement(from, to).compile(source.db))));
  }
  return rows;
}

const storeIdOf = (value: unknown): number | null => (value === null ? null : Number(value));

/** Orders paid in the range, by China day and store: how many, and Σ paidFen. */
export async function salesByDay(source: SumsSource, query: ResolvedIncomeQuery): Promise<DaySales[]> {
  const paidAt = sql.ref(col(orders, 'paidAt'));
  const storeId = sql.ref(col(orders, 'storeId'));
  const paidFen = sql.ref(col(orders, 'paidFen'));
  const rows = await readSliced(
    source,
    query,
    (from, to) => sql`select ${chinaDay(paidAt)} as day, ${storeId} as store_id, count(*) as orders,
        cast(coalesce(sum(${paidFen}), 0) as bigint) as revenue
      from ${sql.table(orders.table)}
      where ${paidAt} >= ${from} and ${paidAt} < ${to}
        ${query.storeId === null ? sql`` : sql`and ${storeId} = ${query.storeId}`}
      group by 1, 2`,
  );
  return rows.map((r) => ({
    day: Number(r.day),
    storeId: storeIdOf(r.store_id),
    orders: Number(r.orders),
    revenueFen: Number(r.revenue),
  }));
}

/** Refunds paid back in the range (status refunded, by refundedAt), by China day and their order's store. */
export async function refundsByDay(source: SumsSource, query: ResolvedIncomeQuery): Promise<DayRefunds[]> {
  const refundedAt = sql.ref(`r.${col(refunds, 'refundedAt')}`);
  const storeId = sql.ref(`o.${col(orders, 'storeId')}`);
  const rows = await readSliced(
    source,
    query,
    (from, to) => sql`select ${chinaDay(refundedAt)} as day, ${storeId} as store_id,
        cast(coalesce(sum(${sql.ref(`r.${col(refunds, 'amountFen')}`)}), 0) as bigint) as refunds
      from ${sql.table(refunds.table)} as r
      left join ${sql.table(orders.table)} as o on o.id = ${sql.ref(`r.${col(refunds, 'orderId')}`)}
      where ${sql.ref(`r.${col(refunds, 'status')}`)} = 'refunded'
        and ${refundedAt} >= ${from} and ${refundedAt} < ${to}
        ${query.storeId === null ? sql`` : sql`and ${storeId} = ${query.storeId}`}
      group by 1, 2`,
  );
  return rows.map((r) => ({
    day: Number(r.day),
    storeId: storeIdOf(r.store_id),
    refundsFen: Number(r.refunds),
  }));
}

/**
 * The stores a report lists: every store not deleted, and any other the sums name (a store
 * deleted since keeps its history); with a store filter, that store alone. Answers null when the
 * filtered store does not exist at all.
 */
export async function storesOf(
  source: SumsSource,
  query: ResolvedIncomeQuery,
  named: Iterable<number | null>,
): Promise<{ id: number; name: string }[] | null> {
  const name = sql.ref(col(stores, 'name'));
  const table = sql.table(stores.table);
  const read = async (statement: RawBuilder<unknown>) =>
    (await source.read(statement.compile(source.db))).map((r) => ({
      id: Number(r.id),
      name: String(r.name),
    }));
  if (query.storeId !== null) {
    const found = await read(sql`select id, ${name} as name from ${table} where id = ${query.storeId}`);
    return found.length > 0 ? found : null;
  }
  const others = [...new Set(named)].filter((id): id is number => id !== null);
  return read(
    sql`select id, ${name} as name from ${table}
      where deleted_at is null${others.length > 0 ? sql` or id in (${sql.join(others)})` : sql``}
      order by id`,
  );
}
