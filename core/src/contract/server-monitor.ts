/**
 * The answer of GET /api/admin/server-monitor (API.md "Auth"): host, process, database and
 * request figures. The server produces it, the monitor screen renders it.
 */
import type { HttpClient } from '../http/client';
import type { SuccessEnvelope } from './envelope';

export const SERVER_MONITOR_PATH = '/api/admin/server-monitor';

export interface ServerMonitorFigures {
  /** Epoch ms. */
  collectedAt: number;
  host: {
    hostname: string;
    platform: string;
    release: string;
    arch: string;
    cpu: { model: string; count: number; usagePercent: number };
    /** 1, 5 and 15 minutes. */
    loadAverage: number[];
    memory: { totalBytes: number; freeBytes: number; usedPercent: number };
    uptimeS: number;
    /** The disk holding DATA_DIR; null where the platform cannot tell. */
    disk: { path: string; totalBytes: number | null; freeBytes: number | null };
  };
  process: {
    pid: number;
    nodeVersion: string;
    appVersion: string;
    uptimeS: number;
    memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; externalBytes: number };
    cpu: { userMs: number; systemMs: number; usagePercent: number };
  };
  database: { dialect: 'sqlite' | 'postgres'; sizeBytes: number; version: string };
  requests: {
    total: number;
    lastMinute: number;
    byStatusClass: Record<string, number>;
    /** Requests doing their database work now, of at most `concurrencyLimit` (the server's REQUEST_CONCURRENCY). */
    inProgress: number;
    /** Requests waiting their turn for it: above zero, the server is the queue. */
    waiting: number;
    /** 0: no limit (every request goes in at once). */
    concurrencyLimit: number;
  };
}

export async function fetchServerMonitor(http: HttpClient): Promise<ServerMonitorFigures> {
  return (await http.request<SuccessEnvelope<ServerMonitorFigures>>(SERVER_MONITOR_PATH)).data;
}
