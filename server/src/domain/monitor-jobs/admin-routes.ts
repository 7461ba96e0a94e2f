/**
 * Figures of any job for the admin screens (monitor/job), under the monitorJobs read permission:
 *
 *   GET /api/admin/monitorJobs/{id}/uptime   GET …/stats?range=24h|7d|30d   GET …/runs?limit=&before=
 *
 * Same shapes as /api/me/jobs/{id}/…; runNow, pause and resume are the resource's actions, and
 * monitorAlerts is a generic read-only list.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import type { AnyDb } from '../../resources/extensions.js';
import { parseId } from '../../resources/query.js';
import type { WireRow } from '../../resources/storage.js';
import { runsOf, type StatsRange, statsOf, uptimeOf } from './figures.js';
import { jobRow } from './record.js';
import { idParams, runSchema, runsQuery, statsQuery, statsSchema, uptimeSchema } from './schemas.js';

export const adminJobRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  const db = app.db as unknown as AnyDb;
  const read = app.requirePermission('monitor', 'read');
  const common = { tags: ['monitor'], security: bearerSecurity, params: idParams };
  const notFoundResponse = { 404: { description: '任务不存在', ...failureEnvelopeSchema } };

  async function anyJob(request: FastifyRequest<{ Params: { id: string } }>): Promise<WireRow> {
    const id = parseId(request.params.id);
    const job = id === null ? null : await jobRow(db, app.dbDialect, id);
    if (!job) throw notFound('监控任务不存在或已删除');
    return job;
  }

  app.get<{ Params: { id: string } }>(
    '/api/admin/monitorJobs/:id/uptime',
    {
      preHandler: read,
      schema: {
        ...common,
        summary: '任务可用率（24 小时、7 天、30 天）',
        response: { 200: successEnvelopeSchema(uptimeSchema), ...authFailureResponses, ...notFoundResponse },
      },
    },
    async (request) => ok(await uptimeOf(db, (await anyJob(request)).id, app.config.now())),
  );

  app.get<{ Params: { id: string }; Querystring: { range?: StatsRange } }>(
    '/api/admin/monitorJobs/:id/stats',
    {
      preHandler: read,
      schema: {
        ...common,
        querystring: statsQuery,
        summary: '任务可用率与响应时间统计',
        response: { 200: successEnvelopeSchema(statsSchema), ...authFailureResponses, ...notFoundResponse },
      },
    },
    async (request) =>
      ok(await statsOf(db, (await anyJob(request)).id, app.config.now(), request.query.range ?? '24h')),
  );

  app.get<{ Params: { id: string }; Querystring: { limit?: number; before?: string } }>(
    '/api/admin/monitorJobs/:id/runs',
    {
      preHandler: read,
      schema: {
        ...common,
        querystring: runsQuery,
        summary: '任务检查记录（最新的在前）',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: runSchema }),
          ...authFailureResponses,
          ...notFoundResponse,
        },
      },
    },
    async (request) => {
      const job = await anyJob(request);
      const before = request.query.before ? Date.parse(request.query.before) : null;
      return ok(await runsOf(db, job.id, request.query.limit ?? 50, before));
    },
  );
};
