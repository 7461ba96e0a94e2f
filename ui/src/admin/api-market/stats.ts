/**
 * The gateway's per-day figures (contract shared with the gateway's area):
 * `GET /api/admin/marketApis/:id/stats?days=30` and `GET /api/admin/apiKeys/:id/stats?days=30` →
 * `{ days: [{ day, calls, ok, errors, rateLimited, noQuota, latencyAvgMs, latencyMaxMs }] }`,
 * oldest first, zero-filled China days.
 */
import type { HttpClient, SuccessEnvelope } from '@wanxiang/core';

export interface ApiDay {
  day: string;
  calls: number;
  ok: number;
  errors: number;
  rateLimited: number;
  noQuota: number;
  latencyAvgMs: number | null;
  latencyMaxMs: number | null;
}

export interface ApiStats {
  days: ApiDay[];
}

export const STATS_DAYS = 30;

export async function fetchApiStats(
  http: HttpClient,
  of: 'marketApis' | 'apiKeys',
  id: number,
  days = STATS_DAYS,
): Promise<ApiStats> {
  const answer = await http.request<SuccessEnvelope<ApiStats>>(`/api/admin/${of}/${id}/stats`, {
    query: { days },
    kind: 'silent',
  });
  return { days: Array.isArray(answer.data?.days) ? answer.data.days : [] };
}

/** Totals over the days shown (the cards above the charts). */
export function totalsOf(days: readonly ApiDay[]) {
  const calls = days.reduce((n, d) => n + d.calls, 0);
  const failed = days.reduce((n, d) => n + d.errors, 0);
  const refused = days.reduce((n, d) => n + d.rateLimited + d.noQuota, 0);
  const weighted = days.reduce((n, d) => n + (d.latencyAvgMs ?? 0) * d.calls, 0);
  return {
    calls,
    failed,
    refused,
    latencyAvgMs: calls > 0 ? Math.round(weighted / calls) : null,
  };
}
