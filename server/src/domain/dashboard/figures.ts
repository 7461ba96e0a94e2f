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

type Figure<K extends keyof DashboardFigures> = (
  source: FigureSource,
) => Promise<NonNullable<DashboardFigures[K]>>;

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

async function single(
  source: FigureSource,
  statement: RawBuilder<unknown>,
): Promise<Record<string, unknown>> {
  return (await source.read(statement.compile(source.db)))[0] ?? {};
}

/** How many rows of a resource are in a state. */
function countInState(resource: string, state: string) {
  const { table, column } = tableAndColumn(resource, 'status');
  return async (source: FigureSource) =>
    Number((await single(source, sql`select count(*) as n from ${table} where ${column} = ${state}`)).n ?? 0);
}

/** Orders paid in a window, and Σ paidFen — what 收入统计 counts, for today so far. */
async function paidIn(
  source: FigureSource,
  window: TimeWindow,
): Promise<{ orders: number; revenueFen: number }> {
  const { table, column: paidAt } = tableAndColumn('orders', 'paidAt');
  const paidFen = tableAndColumn('orders', 'paidFen').column;
  const row = await single(
    source,
    sql`select count(*) as orders, cast(coalesce(sum(${paidFen}), 0) as bigint) as revenue
      from ${table} where ${paidAt} >= ${window.from} and ${paidAt} < ${window.to}`,
  );
  return { orders: Number(row.orders ?? 0), revenueFen: Number(row.revenue ?? 0) };
}

function comparison(pick: (paid: { orders: number; revenueFen: number }) => number) {
  return async (source: FigureSource): Promise<DayComparison> => {
    const { today, yesterday } = todayAgainstYesterday(source.now);
    return { today: pick(await paidIn(source, today)), yesterday: pick(await paidIn(source, yesterday)) };
  };
}

/**
 * Every figure, keyed as core names them: the type makes a new figure of core's need its source
 * here.
 */
export const FIGURES: { [K in keyof Required<DashboardFigures>]: Figure<K> } = {
  ordersToday: comparison((paid) => paid.orders),
  revenueTodayFen: comparison((paid) => paid.revenueFen),
  awaitingAcceptance: countInState('orders', 'paid'),
  awaitingRunner: countInState('deliveries', 'waiting'),
  pendingRefunds: countInState('orderRefunds', 'pending'),
  jobsDown: countInState('monitorJobs', 'down'),
  certificatesExpiring: countInState('sslJobs', 'expiring'),
};
