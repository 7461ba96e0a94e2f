/**
 * The monitoring routes of issue 16's contract (/work/briefs/monitor-contract.md, API.md), typed for
 * the screens. One reader (`jobReader`) serves both sides: a user's own jobs under /api/me/jobs and
 * anyone's under /api/admin/monitorJobs (the same shapes), so the detail view is written once.
 */
import type { HttpClient } from '@wanxiang/core';

export type JobStatus = 'up' | 'down' | 'pending' | 'paused';
export type RunStatus = 'up' | 'down' | 'pending';
export type StatsRange = '24h' | '7d' | '30d';

/** One check (heartbeat) as the bars and the history table use it. */
export interface Beat {
  status: RunStatus;
  at: string;
  latencyMs: number | null;
}

export interface Run extends Beat {
  id: number;
  jobId?: number;
  httpStatus?: number | null;
  message?: string | null;
  important?: boolean;
}

export interface Job {
  id: number;
  name: string;
  kind: string;
  url: string;
  method?: string;
  headers?: Record<string, string> | null;
  body?: string | null;
  intervalS: number;
  retryIntervalS?: number;
  timeoutMs?: number;
  acceptedStatus?: string;
  keyword?: string | null;
  invertKeyword?: boolean;
  maxRetries?: number;
  followRedirects?: boolean;
  ignoreTls?: boolean;
  status: JobStatus;
  lastCheckAt: string | null;
  lastLatencyMs: number | null;
  screenshot?: string | null;
  ownerId?: number | null;
  /** Only in /api/me/jobs lists: the last 50 checks, oldest first, and the 24 h uptime. */
  recent?: Beat[];
  uptime24h?: number | null;
}

export interface Uptime {
  h24: number | null;
  d7: number | null;
  d30: number | null;
}

export interface StatsPoint {
  at: string;
  up: number;
  down: number;
  avgMs: number | null;
  p95Ms: number | null;
}

export interface Stats {
  range: StatsRange;
  uptime: number | null;
  avgMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  points: StatsPoint[];
}

export type AlertLevel = 'down' | 'up' | 'expiring' | 'expired' | 'error';

export interface Alert {
  id: number;
  jobId?: number | null;
  sslJobId?: number | null;
  level: AlertLevel;
  message: string;
  at: string;
}

/** What `/ws` topic `monitor:user:<id>` (and `monitor`) pushes after each check. */
export type MonitorPush =
  | {
      type: 'job';
      job: Pick<Job, 'id' | 'status' | 'lastCheckAt' | 'lastLatencyMs'>;
      run?: Run;
      alert?: Alert;
    }
  | { type: 'certificate'; sslJob: { id: number } & Record<string, unknown>; alert?: Alert };

type Envelope<T> = { data: T };

/** Lists come as `{results, page}` (as every list of the API) — or, tolerated, as a bare array. */
export function rowsOf<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results))
    return (data as { results: T[] }).results;
  return [];
}

async function data<T>(call: Promise<Envelope<T>>): Promise<T> {
  return (await call).data;
}

/** The reads a job's detail needs, on either side. */
export interface JobReader {
  uptime(id: number): Promise<Uptime>;
  stats(id: number, range: StatsRange): Promise<Stats>;
  runs(id: number, page: { limit: number; before?: string }): Promise<Run[]>;
}

/** `/api/me/jobs/{id}/…` (own jobs) or `/api/admin/monitorJobs/{id}/…` (any job). */
export function jobReader(http: HttpClient, side: 'me' | 'admin'): JobReader {
  const base = side === 'me' ? '/api/me/jobs' : '/api/admin/monitorJobs';
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) =>
    data(http.request<Envelope<T>>(`${base}${path}`, { query, kind: 'silent' }));
  return {
    uptime: (id) => get<Uptime>(`/${id}/uptime`),
    stats: (id, range) => get<Stats>(`/${id}/stats`, { range }),
    runs: async (id, { limit, before }) => rowsOf<Run>(await get<unknown>(`/${id}/runs`, { limit, before })),
  };
}

/** The signed-in user's own jobs and alerts (/api/me/jobs, /api/me/alerts). */
export function myJobsApi(http: HttpClient) {
  const base = '/api/me/jobs';
  return {
    list: async () => rowsOf<Job>(await data(http.request<Envelope<unknown>>(base, { kind: 'silent' }))),
    get: (id: number) => data(http.request<Envelope<Job>>(`${base}/${id}`, { kind: 'silent' })),
    create: (body: Record<string, unknown>) =>
      data(http.request<Envelope<Job>>(base, { method: 'POST', body, kind: 'silent' })),
    update: (id: number, body: Record<string, unknown>) =>
      data(http.request<Envelope<Job>>(`${base}/${id}`, { method: 'PATCH', body, kind: 'silent' })),
    remove: async (id: number) => {
      await http.request(`${base}/${id}`, { method: 'DELETE', kind: 'silent' });
    },
    run: (id: number) =>
      data(
        http.request<Envelope<{ job: Job; run: Run }>>(`${base}/${id}/run`, {
          method: 'POST',
          kind: 'silent',
        }),
      ),
    pause: (id: number) =>
      data(http.request<Envelope<Job>>(`${base}/${id}/pause`, { method: 'POST', kind: 'silent' })),
    resume: (id: number) =>
      data(http.request<Envelope<Job>>(`${base}/${id}/resume`, { method: 'POST', kind: 'silent' })),
    alerts: async (limit = 50) =>
      rowsOf<Alert>(
        await data(http.request<Envelope<unknown>>('/api/me/alerts', { query: { limit }, kind: 'silent' })),
      ),
    ...jobReader(http, 'me'),
  };
}

export type MyJobsApi = ReturnType<typeof myJobsApi>;
