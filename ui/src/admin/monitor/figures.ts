/**
 * The answer of GET /api/admin/server-monitor (server/src/domain/monitor/figures.ts), and its
 * loader. The shape belongs in core's contract with the other wire types; it is here until core
 * declares it.
 */
import type { HttpClient, SuccessEnvelope } from '@wanxiang/core';

export interface ServerFigures {
  collectedAt: number;
  host: {
    hostname: string;
    platform: string;
    release: string;
    arch: string;
    cpu: { model: string; count: number; usagePercent: number };
    loadAverage: number[];
    memory: { totalBytes: number; freeBytes: number; usedPercent: number };
    uptimeS: number;
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
  requests: { total: number; lastMinute: number; byStatusClass: Record<string, number> };
}

export const SERVER_MONITOR_PATH = '/api/admin/server-monitor';

export async function fetchServerFigures(http: HttpClient): Promise<ServerFigures> {
  return (await http.request<SuccessEnvelope<ServerFigures>>(SERVER_MONITOR_PATH)).data;
}
