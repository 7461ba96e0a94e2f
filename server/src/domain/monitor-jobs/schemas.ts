import { getResource } from '@wanxiang/core';
import { bodySchema, rowSchema } from '../../resources/openapi.js';

/** OpenAPI shapes of the monitor job routes (me and admin). */
const jobs = getResource('monitorJobs');

/** A monitorJobs row, as the generic routes describe it (generated from the registry). */
export const jobSchema = rowSchema(jobs) as { type: 'object'; properties: Record<string, unknown> };

/** The fields a user sets on their own job (/api/me/jobs); ownerId, status and the figures are the server's. */
export const EDITABLE = [
  'name',
  'kind',
  'url',
  'method',
  'headers',
  'body',
  'intervalS',
  'retryIntervalS',
  'timeoutMs',
  'acceptedStatus',
  'keyword',
  'invertKeyword',
  'maxRetries',
  'followRedirects',
  'ignoreTls',
] as const;

/** The create or update body of /api/me/jobs: the registry's, limited to EDITABLE (documents; core validates). */
export function jobBodySchema(mode: 'create' | 'update') {
  const full = bodySchema(jobs, mode) as { properties: Record<string, unknown>; required?: string[] };
  const keep = new Set<string>([...EDITABLE, 'updatedAt']);
  const properties = Object.fromEntries(Object.entries(full.properties).filter(([k]) => keep.has(k)));
  const required = (full.required ?? []).filter((k) => keep.has(k));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

export const recentSchema = {
  type: 'array',
  description: '最近 50 次检查，最早的在前（画状态条）',
  items: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['up', 'down', 'pending'] },
      at: { type: 'string', format: 'date-time' },
      latencyMs: { type: 'integer', nullable: true },
    },
  },
} as const;

export const listedJobSchema = {
  ...jobSchema,
  properties: {
    ...jobSchema.properties,
    uptime24h: { type: 'number', nullable: true, description: '24 小时可用率（%），无检查时为 null' },
    recent: recentSchema,
  },
} as const;

export const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    jobId: { type: 'integer' },
    status: { type: 'string', enum: ['up', 'down', 'pending'] },
    httpStatus: { type: 'integer', nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    message: { type: 'string', nullable: true },
    important: { type: 'boolean' },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

const percent = { type: 'number', nullable: true } as const;

export const uptimeSchema = {
  type: 'object',
  description: '可用率（%，两位小数），无检查时为 null；来自小时与日汇总',
  properties: { h24: percent, d7: percent, d30: percent },
} as const;

const ms = { type: 'integer', nullable: true } as const;

export const statsSchema = {
  type: 'object',
  description:
    '范围内的可用率与响应时间（百分位精确到所在分桶）；24h/7d 每小时一点，30d 每天（北京时间）一点',
  properties: {
    range: { type: 'string', enum: ['24h', '7d', '30d'] },
    uptime: percent,
    avgMs: ms,
    p50Ms: ms,
    p95Ms: ms,
    p99Ms: ms,
    points: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time' },
          up: { type: 'integer' },
          down: { type: 'integer' },
          avgMs: ms,
          p95Ms: ms,
        },
      },
    },
  },
} as const;

export const alertSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    jobId: { type: 'integer', nullable: true },
    sslJobId: { type: 'integer', nullable: true },
    ownerId: { type: 'integer', nullable: true },
    level: { type: 'string', enum: ['down', 'up', 'expiring', 'expired', 'error'] },
    message: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

export const idParams = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
} as const;

export const runsQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    before: { type: 'string', format: 'date-time', description: '只取这之前的记录（翻页）' },
  },
} as const;

export const statsQuery = {
  type: 'object',
  properties: { range: { type: 'string', enum: ['24h', '7d', '30d'], default: '24h' } },
} as const;
