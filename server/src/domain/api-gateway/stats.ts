/**
 * The charts' figures (contract with the API-market screens):
 *
 *   GET /api/admin/marketApis/{id}/stats?days=30   GET /api/admin/apiKeys/{id}/stats?days=30
 *
 * → `{days: [{day, calls, ok, errors, rateLimited, noQuota, latencyAvgMs, latencyMaxMs}]}`, the
 * last 1–90 China days oldest first, every day present (zero-filled), from the daily roll-ups
 * (api_call_days), so they outlive the raw calls' retention. Permission: apiMarket read.
 */
import { parseStatsDays, statsFrom, statsSeries } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { invalidInput, notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import type { AnyDb } from '../../resources/extensions.js';
import { parseId } from '../../resources/query.js';

const daySchema = {
  type: 'object',
  properties: {
    day: { type: 'string', description: '中国日期 YYYY-MM-DD' },
    calls: { type: 'integer' },
    ok: { type: 'integer' },
    errors: { type: 'integer' },
    rateLimited: { type: 'integer' },
    noQuota: { type: 'integer' },
    latencyAvgMs: { type: 'integer' },
    latencyMaxMs: { type: 'integer' },
  },
} as const;

const statsSchema = {
  type: 'object',
  properties: {
    days: { type: 'array', items: daySchema, description: '最早的在前，每天都有（无调用为 0）' },
  },
} as const;

export async function callStats(
  db: AnyDb,
  by: 'api_id' | 'key_id',
  id: number,
  now: number,
  days: number,
): Promise<{ days: ReturnType<typeof statsSeries> }> {
  const rows = await db
    .selectFrom('api_call_days')
    .selectAll()
    .where(by, '=', id)
    .where('day_start', '>=', statsFrom(now, days))
    .execute();
  return {
    days: statsSeries(
      rows.map((r) => ({
        dayStart: Number(r.day_start),
        calls: Number(r.calls),
        ok: Number(r.ok),
        errors: Number(r.errors),
        rateLimited: Number(r.rate_limited),
        noQuota: Number(r.no_quota),
        latencySum: Number(r.latency_sum),
        latencyMax: Number(r.latency_max),
      })),
      now,
      days,
    ),
  };
}

export const statsRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as AnyDb;
  const read = app.requirePermission('apiMarket', 'read');
  const targets = [
    {
      path: '/api/admin/marketApis/:id/stats',
      table: 'market_apis',
      by: 'api_id',
      what: 'API',
      summary: 'API 每日调用统计',
    },
    {
      path: '/api/admin/apiKeys/:id/stats',
      table: 'api_keys',
      by: 'key_id',
      what: 'API Key',
      summary: 'API Key 每日调用统计',
    },
  ] as const;
  for (const t of targets) {
    app.get<{ Params: { id: string }; Querystring: { days?: string } }>(
      t.path,
      {
        preHandler: read,
        schema: {
          tags: ['apiMarket'],
          security: bearerSecurity,
          summary: t.summary,
          description:
            '按中国日期汇总的调用次数、成功、出错、限流、额度不足与平均/最大耗时；days 为 1–90，默认 30。',
          params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          querystring: {
            type: 'object',
            properties: { days: { type: 'string', description: '1–90，默认 30' } },
          },
          response: {
            200: successEnvelopeSchema(statsSchema),
            ...authFailureResponses,
            404: { description: `${t.what} 不存在`, ...failureEnvelopeSchema },
            422: { description: 'days 不在 1–90 之间', ...failureEnvelopeSchema },
          },
        },
      },
      async (request) => {
        const days = parseStatsDays(request.query.days);
        if ('error' in days) throw invalidInput({ days: days.error }, days.error);
        const id = parseId(request.params.id);
        const row =
          id === null
            ? undefined
            : await db.selectFrom(t.table).select('id').where('id', '=', id).executeTakeFirst();
        if (!row || id === null) throw notFound(`${t.what} 不存在`);
        return ok(await callStats(db, t.by, id, app.config.now(), days.days));
      },
    );
  }
};
