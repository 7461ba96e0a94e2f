/**
 * Where each figure of the /admin dashboard comes from: one small SQL aggregate each, over the
 * same rows the screens the cards link to list. core's DASHBOARD_FIGURE_AREAS decides who sees
 * which; a figure is read only for a user who sees it.
 *
 * Each count is served by an index the lists already have (`orders (status, created_at, id)`,
 * `deliveries (status, …)`, `order_refunds (status, …)`); today's orders and revenue by the
 * income index `orders (paid_at, store_id, paid_fen, id)` (migration 0012_income); monitoring's by
 * `monitor_jobs (status, last_check_at, id)` and `ssl_jobs (status, not_after, id)`.
 */
import {
  type DashboardFigures,
  type DayComparison,
  getResource,
  type TimeWindow,
  todayAgainstYesterday,
} from '@wanxiang/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReadRows } from '../../resources/relations.js';
import { columnOf, modelOf } from '../../resources/storage.js';

export interface FigureSource {
  db: Kysely<Database>;
  read: ReadRows;
  now: number;
}

function tableAndColumn(
  resource: string,
  field: string,
): { table: RawBuilder<unknown>; column: RawBuilder<unknown> } {
  const def = getResource(resource);
  if (!def) throw new Error(`the registry has no ${resource}`);
  const model = modelOf(def);
  const column = columnOf(model, field);
  if (!column) throw new Error(`${model.table} has no column for ${field}`);
  return { table: sql.table(model.table), column: sql.ref(column) };
}

/**
 * A figure: the scalar subqueries it needs, by name, and how it reads their values. The route puts
 * every figure the user sees in one statement (`select (…) as a, (…) as b`): one round trip to
 * the database for the whole dashboard, where a statement per value took ten.
 */
interface Figure<T> {
  parts(now: number): Record<string, RawBuilder<unknown>>;
  read(value: (part: string) => number): T;
}

/** How many rows of a resource are in a state. */
function countInState(resource: string, state: string): Figure<number> {
  const { table, column } = tableAndColumn(resource, 'status');
  return {
    parts: () => ({ n: sql`select count(*) from ${table} where ${column} = ${state}` }),
    read: (value) => value('n'),
  };
}

/** Orders paid in a window, or Σ paidFen of them — what 收入统计 counts, for today so far. */
function paidIn(window: TimeWindow, what: 'orders' | 'revenue'): RawBuilder<unknown> {
  const { table, column: paidAt } = tableAndColumn('orders', 'paidAt');
  const paidFen = tableAndColumn('orders', 'paidFen').column;
  const value = what === 'orders' ? sql`count(*)` : sql`cast(coalesce(sum(${paidFen}), 0) as bigint)`;
  return sql`select ${value} from ${table} where ${paidAt} >= ${window.from} and ${paidAt} < ${window.to}`;
}

function comparison(what: 'orders' | 'revenue'): Figure<DayComparison> {
  return {
    parts: (now) => {
      const { today, yesterday } = todayAgainstYesterday(now);
      return { today: paidIn(today, what), yesterday: paidIn(yesterday, what) };
    },
    read: (value) => ({ today: value('today'), yesterday: value('yesterday') }),
  };
}

/**
 * Every figure, keyed as core names them: the type makes a new figure of core's need its source
 * here.
 */
export const FIGURES: { [K in keyof Required<DashboardFigures>]: Figure<NonNullable<DashboardFigures[K]>> } =
  {
    ordersToday: comparison('orders'),
    revenueTodayFen: comparison('revenue'),
    awaitingAcceptance: countInState('orders', 'paid'),
    awaitingRunner: countInState('deliveries', 'waiting'),
    pendingRefunds: countInState('orderRefunds', 'pending'),
    jobsDown: countInState('monitorJobs', 'down'),
    certificatesExpiring: countInState('sslJobs', 'expiring'),
  };

/** The figures `keys`, read in one statement. */
export async function readFigures(
  source: FigureSource,
  keys: readonly (keyof DashboardFigures)[],
): Promise<DashboardFigures> {
  if (keys.length === 0) return {};
  const columns: RawBuilder<unknown>[] = [];
  for (const key of keys)
    for (const [part, query] of Object.entries(FIGURES[key].parts(source.now)))
      columns.push(sql`(${query}) as ${sql.id(`${key}_${part}`)}`);
  const statement = sql`select ${sql.join(columns, sql`, `)}`;
  const row = (await source.read(statement.compile(source.db)))[0] ?? {};
  const figures: DashboardFigures = {};
  for (const key of keys)
    Object.assign(figures, { [key]: FIGURES[key].read((part) => Number(row[`${key}_${part}`] ?? 0)) });
  return figures;
}
