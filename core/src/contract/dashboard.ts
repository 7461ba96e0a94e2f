/**
 * GET /api/admin/dashboard: the figures under the /admin heading. Each figure belongs to a
 * permission area, and the server answers only those of the areas the user may read: a key that
 * is absent is a card the user does not see (not a zero).
 */

import { chinaDayOf, chinaDayStart, DAY_MS } from '../format/date';
import type { HttpClient } from '../http/client';
import type { SuccessEnvelope } from './envelope';
import { can, type PermissionArea } from './permissions';

export const DASHBOARD_PATH = '/api/admin/dashboard';

/** Today so far against yesterday up to the same time of day. */
export interface DayComparison {
  today: number;
  yesterday: number;
}

export interface DashboardFigures {
  /** Orders paid today (oms). */
  ordersToday?: DayComparison;
  /** Σ paidFen of those orders, as 收入统计 counts revenue (finance). */
  revenueTodayFen?: DayComparison;
  /** Paid orders the store has not accepted yet: status paid (oms). */
  awaitingAcceptance?: number;
  /** Deliveries waiting for a runner: status waiting (runner). */
  awaitingRunner?: number;
  /** Refund requests nobody has decided: orderRefunds status pending (oms, as the refund list). */
  pendingRefunds?: number;
  /** Monitor jobs whose checks confirm them down: monitorJobs status down (monitor). */
  jobsDown?: number;
  /** Certificates due within their warning days: sslJobs status expiring (monitor). */
  certificatesExpiring?: number;
}

export type DashboardFigureKey = keyof DashboardFigures;

export interface Dashboard extends DashboardFigures {
  /** Epoch ms the figures were read at. */
  at: number;
}

/** The area whose read permission shows each figure. */
export const DASHBOARD_FIGURE_AREAS: Readonly<Record<DashboardFigureKey, PermissionArea>> = {
  ordersToday: 'oms',
  revenueTodayFen: 'finance',
  awaitingAcceptance: 'oms',
  awaitingRunner: 'runner',
  pendingRefunds: 'oms',
  jobsDown: 'monitor',
  certificatesExpiring: 'monitor',
};

/** The figures a user with these permissions sees, in card order. */
export function dashboardFiguresFor(permissions: readonly string[]): DashboardFigureKey[] {
  return (Object.keys(DASHBOARD_FIGURE_AREAS) as DashboardFigureKey[]).filter((key) =>
    can(permissions, DASHBOARD_FIGURE_AREAS[key], 'read'),
  );
}

/** A span of instants, `from` included, `to` excluded (epoch ms). */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * Today in China from midnight to `now`, and yesterday from its midnight to the same time of
 * day: at 10:00 the comparison is with yesterday until 10:00, not with all of yesterday.
 */
export function todayAgainstYesterday(now: number): { today: TimeWindow; yesterday: TimeWindow } {
  const start = chinaDayStart(chinaDayOf(now));
  return {
    today: { from: start, to: now + 1 },
    yesterday: { from: start - DAY_MS, to: now + 1 - DAY_MS },
  };
}

export async function fetchDashboard(http: HttpClient): Promise<Dashboard> {
  return (await http.request<SuccessEnvelope<Dashboard>>(DASHBOARD_PATH)).data;
}
