/** GET /api/admin/server-monitor — the figures behind the 服务器监控 screen (system:read). */
import { SERVER_MONITOR_PATH } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.js';
import { authFailureResponses, bearerSecurity, successEnvelopeSchema } from '../../http/schemas.js';
import { CpuMeter, collectFigures } from './figures.js';

const bytes = { type: ['integer', 'null'] } as const;
const integer = { type: 'integer' } as const;
const number = { type: 'number' } as const;
const string = { type: 'string' } as const;

const figuresSchema = {
  type: 'object',
  properties: {
    collectedAt: { ...integer, description: 'epoch ms' },
    host: {
      type: 'object',
      properties: {
        hostname: string,
        platform: string,
        release: string,
        arch: string,
        cpu: {
          type: 'object',
          properties: {
            model: string,
            count: integer,
            usagePercent: { ...number, description: '全部核心的忙碌占比，自上次查询以来' },
          },
        },
        loadAverage: { type: 'array', items: number, description: '1、5、15 分钟' },
        memory: {
          type: 'object',
          properties: { totalBytes: integer, freeBytes: integer, usedPercent: number },
        },
        uptimeS: integer,
        disk: {
          type: 'object',
          description: '数据目录所在磁盘',
          properties: { path: string, totalBytes: bytes, freeBytes: bytes },
        },
      },
    },
    process: {
      type: 'object',
      properties: {
        pid: integer,
        nodeVersion: string,
        appVersion: string,
        uptimeS: integer,
        memory: {
          type: 'object',
          properties: {
            rssBytes: integer,
            heapUsedBytes: integer,
            heapTotalBytes: integer,
            externalBytes: integer,
          },
        },
        cpu: {
          type: 'object',
          properties: {
            userMs: integer,
            systemMs: integer,
            usagePercent: { ...number, description: '占单核的百分比，自上次查询以来' },
          },
        },
      },
    },
    database: {
      type: 'object',
      properties: {
        dialect: { type: 'string', enum: ['sqlite', 'postgres'] },
        sizeBytes: integer,
        version: string,
      },
    },
    requests: {
      type: 'object',
      properties: {
        total: { ...integer, description: '启动以来' },
        lastMinute: { ...integer, description: '最近 60 秒的请求数（每分钟速率）' },
        byStatusClass: { type: 'object', additionalProperties: integer },
        inProgress: { ...integer, description: '正在做数据库工作的请求数（REQUEST_CONCURRENCY 以内）' },
        waiting: { ...integer, description: '排队等待的请求数：大于 0 说明服务器已满负荷' },
        concurrencyLimit: { ...integer, description: '同时做数据库工作的请求上限；0 为不限' },
      },
    },
  },
} as const;

export const monitorRoutes: FastifyPluginAsync = async (app) => {
  const cpu = new CpuMeter();
  app.get(
    SERVER_MONITOR_PATH,
    {
      preHandler: app.requirePermission('system', 'read'),
      schema: {
        tags: ['admin'],
        summary: '服务器监控数据（需要 system:read 权限）',
        security: bearerSecurity,
        response: { 200: successEnvelopeSchema(figuresSchema), ...authFailureResponses },
      },
    },
    async () =>
      ok(
        await collectFigures({
          db: app.db,
          dialect: app.dbDialect,
          dataDir: app.config.dataDir,
          stats: app.requestStats,
          admission: app.admission,
          cpu,
          version: app.config.version,
          now: app.config.now(),
        }),
      ),
  );
};
