/**
 * A signed-in user's own monitor jobs (any signed-in user; another's job answers 404):
 *
 *   GET    /api/me/jobs                 → own jobs, newest first, each with uptime24h and recent (last 50 checks)
 *   POST   /api/me/jobs                 → creates (cap MONITOR_MAX_JOBS_PER_USER; the target checked by the
 *                                         outbound policy at once: 422 没有监控权限，不能连接本机地址…)
 *   GET    /api/me/jobs/{id}            PATCH (same checks)  DELETE
 *   POST   /api/me/jobs/{id}/run        → checks now: {job, run}
 *   POST   /api/me/jobs/{id}/pause      POST /api/me/jobs/{id}/resume
 *   GET    /api/me/jobs/{id}/runs?limit=50&before=   GET …/uptime   GET …/stats?range=24h|7d|30d
 *   GET    /api/me/alerts?limit=        → alerts of own jobs and certificate watches, newest first
 *
 * Writes go through the resource engine (the definition's validation and rules, audit entries),
 * as the job's owner.
 */
import { getResource, tcpAddress, uptimePercent } from '@wanxiang/core';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { conflict, invalidInput, notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { OutboundRefusedError, resolveOutbound } from '../../net/outbound.js';
import type { AnyDb } from '../../resources/extensions.js';
import { parseId } from '../../resources/query.js';
import { modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { signedIn } from '../auth/index.js';

import { recentOf, runsOf, type StatsRange, statsOf, uptimeOf } from './figures.js';
import { jobRow } from './record.js';
import { windowRollup } from './rollups.js';
import { DEFAULT_MONITORING, policyOfJobOwner } from './runner.js';
import {
  alertSchema,
  EDITABLE,
  idParams,
  jobBodySchema,
  jobSchema,
  listedJobSchema,
  runSchema,
  runsQuery,
  statsQuery,
  statsSchema,
  uptimeSchema,
} from './schemas.js';

const MAX_LISTED = 200;
const MAX_ALERTS = 200;
const SAVE_RESOLVE_TIMEOUT_MS = 2000;

function editable(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidInput(undefined, '请求内容须为对象');
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) if (key in body) out[key] = (body as Record<string, unknown>)[key];
  return out;
}

/**
 * The target as the owner's policy sees it, at save: a loopback/private literal (or a name that
 * resolves to one, such as localhost) is refused at once; a name that does not resolve now is
 * the checks' to report. Every check checks again.
 */
async function refuseTarget(db: AnyDb, ownerId: number, kind: unknown, url: unknown): Promise<void> {
  if (typeof url !== 'string') return;
  let host: string | null = null;
  if (kind === 'tcp') host = tcpAddress(url)?.host ?? null;
  else {
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return; // the definition's pattern says what is wrong with it
    }
  }
  if (!host) return;
  const policy = await policyOfJobOwner(db, ownerId);
  try {
    await resolveOutbound(host, policy, { timeoutMs: SAVE_RESOLVE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw invalidInput({ url: error.message }, error.message);
  }
}

export const meJobRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  const db = app.db as unknown as AnyDb;
  const def = getResource('monitorJobs');
  const model = modelOf(def);
  const common = { tags: ['monitor'], security: bearerSecurity };
  const maxJobs = app.config.monitoring?.maxJobsPerUser ?? DEFAULT_MONITORING.maxJobsPerUser;
  const actor = (request: FastifyRequest) => ({ user: { id: signedIn(request).user.id }, ip: request.ip });
  const notFoundJob = () => notFound('监控任务不存在或已删除');

  /** The user's job, or 404 (also for another user's job: its existence is not told). */
  async function ownJob(request: FastifyRequest<{ Params: { id: string } }>): Promise<WireRow> {
    const id = parseId(request.params.id);
    const job = id === null ? null : await jobRow(db, app.dbDialect, id);
    if (!job || job.ownerId !== signedIn(request).user.id) throw notFoundJob();
    return job;
  }
  const resync = () => void app.monitorJobs.sync();
  const byId = { params: idParams };
  const notFoundResponse = { 404: { description: '任务不存在或不是自己的', ...failureEnvelopeSchema } };

  app.get(
    '/api/me/jobs',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的监控任务',
        description: `最新创建的在前，最多 ${MAX_LISTED} 个；每个带 24 小时可用率和最近 50 次检查。`,
        response: {
          200: successEnvelopeSchema({ type: 'array', items: listedJobSchema }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom(model.table)
        .selectAll()
        .where('owner_id', '=', signedIn(request).user.id)
        .where('deleted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(MAX_LISTED)
        .execute();
      const jobs = rows.map((row) => toWireRow(model, row));
      const now = app.config.now();
      const recent = await recentOf(
        db,
        jobs.map((j) => j.id),
      );
      const uptimes = await Promise.all(jobs.map((j) => windowRollup(db, j.id, now, 86_400_000)));
      return ok(
        jobs.map((job, i) => {
          const up = uptimePercent(uptimes[i] as NonNullable<(typeof uptimes)[number]>);
          return {
            ...job,
            uptime24h: up === null ? null : Math.round(up * 100) / 100,
            recent: recent.get(job.id) ?? [],
          };
        }),
      );
    },
  );

  app.post(
    '/api/me/jobs',
    {
      preHandler: app.requireUser,
      // The body is the registry's to validate (core's zod, Chinese messages): the schema documents.
      validatorCompiler: () => () => true,
      schema: {
        ...common,
        summary: '新建监控任务',
        description: `每位用户最多 ${maxJobs} 个任务（MONITOR_MAX_JOBS_PER_USER）。没有监控权限的用户不能监控本机、内网、链路本地地址。`,
        body: jobBodySchema('create'),
        response: {
          200: successEnvelopeSchema(jobSchema),
          ...authFailureResponses,
          409: { description: '已达任务数上限', ...failureEnvelopeSchema },
          422: { description: '字段无效，或目标地址不允许', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const userId = signedIn(request).user.id;
      const values = editable(request.body);
      const { count } = (await db
        .selectFrom(model.table)
        .select((eb) => eb.fn.countAll().as('count'))
        .where('owner_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow()) as { count: number | string };
      if (Number(count) >= maxJobs) throw conflict(`每位用户最多 ${maxJobs} 个监控任务，请先删除不用的任务`);
      await refuseTarget(db, userId, values.kind ?? 'http', values.url);
      const created = await app.resources.create(def, { ...values, ownerId: userId }, actor(request));
      resync();
      return ok(created, '已创建');
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/me/jobs/:id',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        summary: '我的一个监控任务',
        response: { 200: successEnvelopeSchema(jobSchema), ...authFailureResponses, ...notFoundResponse },
      },
    },
    async (request) => ok(await ownJob(request)),
  );

  app.patch<{ Params: { id: string } }>(
    '/api/me/jobs/:id',
    {
      preHandler: app.requireUser,
      // The body is the registry's to validate (core's zod, Chinese messages): the schema documents.
      validatorCompiler: () => () => true,
      schema: {
        ...common,
        ...byId,
        summary: '修改监控任务',
        description: '只改给出的字段；目标地址同新建一样检查。',
        body: jobBodySchema('update'),
        response: {
          200: successEnvelopeSchema(jobSchema),
          ...authFailureResponses,
          ...notFoundResponse,
          422: { description: '字段无效，或目标地址不允许', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const job = await ownJob(request);
      const values = editable(request.body);
      if ('url' in values || 'kind' in values)
        await refuseTarget(db, job.ownerId as number, values.kind ?? job.kind, values.url ?? job.url);
      const updated = await app.resources.update(def, job.id, values, actor(request), String(job.updatedAt));
      resync();
      return ok(updated, '已保存');
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/me/jobs/:id',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        summary: '删除监控任务',
        response: {
          200: successEnvelopeSchema({ type: 'null' }),
          ...authFailureResponses,
          ...notFoundResponse,
        },
      },
    },
    async (request) => {
      const job = await ownJob(request);
      await app.resources.remove(def, job.id, actor(request));
      resync();
      return ok(null, '已删除');
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/me/jobs/:id/run',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        summary: '立即检查',
        description: '马上检查一次并记录（与定时检查相同）；回答检查后的任务与这次记录。',
        response: {
          200: successEnvelopeSchema({ type: 'object', properties: { job: jobSchema, run: runSchema } }),
          ...authFailureResponses,
          ...notFoundResponse,
          409: { description: '任务已暂停', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const job = await ownJob(request);
      if (job.status === 'paused') throw conflict('任务已暂停，恢复后才能检查');
      const recorded = await app.monitorJobs.checkJob(job.id);
      if (!recorded) throw conflict('任务已暂停或已删除');
      return ok({ job: recorded.job, run: recorded.run }, recorded.run.message as string);
    },
  );

  for (const [action, label] of [
    ['pause', '暂停'],
    ['resume', '恢复'],
  ] as const)
    app.post<{ Params: { id: string } }>(
      `/api/me/jobs/:id/${action}`,
      {
        preHandler: app.requireUser,
        schema: {
          ...common,
          ...byId,
          summary: `${label}监控任务`,
          response: {
            200: successEnvelopeSchema(jobSchema),
            ...authFailureResponses,
            ...notFoundResponse,
            409: { description: '当前状态不能执行此操作', ...failureEnvelopeSchema },
          },
        },
      },
      async (request) => {
        const job = await ownJob(request);
        const answer = await app.resources.action(def, job.id, action, {}, actor(request));
        resync();
        return ok(answer, `已${label}`);
      },
    );

  app.get<{ Params: { id: string }; Querystring: { limit?: number; before?: string } }>(
    '/api/me/jobs/:id/runs',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        querystring: runsQuery,
        summary: '检查记录',
        description: '最新的在前；用最后一条的 at 作 before 翻页。',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: runSchema }),
          ...authFailureResponses,
          ...notFoundResponse,
        },
      },
    },
    async (request) => {
      const job = await ownJob(request);
      const before = request.query.before ? Date.parse(request.query.before) : null;
      return ok(await runsOf(db, job.id, request.query.limit ?? 50, before));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/me/jobs/:id/uptime',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        summary: '可用率（24 小时、7 天、30 天）',
        response: { 200: successEnvelopeSchema(uptimeSchema), ...authFailureResponses, ...notFoundResponse },
      },
    },
    async (request) => ok(await uptimeOf(db, (await ownJob(request)).id, app.config.now())),
  );

  app.get<{ Params: { id: string }; Querystring: { range?: StatsRange } }>(
    '/api/me/jobs/:id/stats',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        ...byId,
        querystring: statsQuery,
        summary: '可用率与响应时间统计',
        response: { 200: successEnvelopeSchema(statsSchema), ...authFailureResponses, ...notFoundResponse },
      },
    },
    async (request) =>
      ok(await statsOf(db, (await ownJob(request)).id, app.config.now(), request.query.range ?? '24h')),
  );

  app.get<{ Querystring: { limit?: number } }>(
    '/api/me/alerts',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_ALERTS, default: 50 } },
        },
        summary: '我的告警',
        description: '自己的监控任务与证书监控的告警，最新的在前。',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: alertSchema }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const alerts = modelOf(getResource('monitorAlerts'));
      const rows = await db
        .selectFrom(alerts.table)
        .selectAll()
        .where('owner_id', '=', signedIn(request).user.id)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(request.query.limit ?? 50)
        .execute();
      return ok(rows.map((row) => toWireRow(alerts, row)));
    },
  );
};
