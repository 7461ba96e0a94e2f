/**
 * A signed-in user's own API keys, plans, orders and quotas (`/api/me/…`), any signed-in user.
 * Each write goes through the same engine handlers as the admin's (keys.ts, orders.ts) with the
 * user as the actor, so the audit entry names them; another user's key is a 404 like none.
 *
 *   GET  /api/me/apiKeys                  my keys, newest first (prefix, never the secret)
 *   POST /api/me/apiKeys {name, scopes?}  → the key row with `key`, shown this once
 *   POST /api/me/apiKeys/{id}/rotate      → the row with the new `key`; the old one fails at once
 *   POST /api/me/apiKeys/{id}/revoke
 *   GET  /api/me/apiPlans                 the plans on sale
 *   GET  /api/me/apiOrders                my orders, newest first
 *   POST /api/me/apiOrders {planId}       buy for myself, paid from my balance (409 余额不足)
 *   GET  /api/me/apiQuotas                my quotas, soonest expiry first
 */
import { getResource, type ResourceDef } from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { signedIn } from '../auth/index.js';
import { KEY_ANSWER_PROPERTIES, keysOf } from './keys.js';

const apiKeys = getResource('apiKeys');
const apiOrders = getResource('apiOrders');
const apiQuotas = getResource('apiQuotas');
const apiPlans = getResource('apiPlans');

const rowOf = (title: string, extra: Record<string, object> = {}) => ({
  type: 'object',
  description: `${title}的一行（字段见资源定义）`,
  additionalProperties: true,
  properties: extra,
});

async function rowsOf(db: AnyDb, def: ResourceDef, userId: number, order: string): Promise<WireRow[]> {
  const model = modelOf(def);
  const rows = await db
    .selectFrom(model.table)
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy(order, 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map((row) => toWireRow(model, row));
}

export const apiMarketRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as AnyDb;
  const common = { tags: ['api-market'], security: bearerSecurity };
  const actor = (request: FastifyRequest) => ({ user: request.user, ip: request.ip });
  const keyRow = rowOf('API Key', KEY_ANSWER_PROPERTIES);
  const idParam = { type: 'object', properties: { id: { type: 'string' } } };

  /** The signed-in user's own key, or 404. */
  const ownKey = async (request: FastifyRequest, rawId: string): Promise<number> => {
    const id = Number(rawId);
    const model = modelOf(apiKeys);
    const row =
      Number.isSafeInteger(id) && id > 0
        ? await db.selectFrom(model.table).select('user_id').where('id', '=', id).executeTakeFirst()
        : undefined;
    if (!row || Number(row.user_id) !== signedIn(request).user.id) throw notFound('API Key 不存在');
    return id;
  };

  app.get(
    '/api/me/apiKeys',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的 API Key',
        response: { 200: successEnvelopeSchema({ type: 'array', items: keyRow }), ...authFailureResponses },
      },
    },
    async (request) => ok(await keysOf(db, signedIn(request).user.id)),
  );

  app.post(
    '/api/me/apiKeys',
    {
      preHandler: app.requireUser,
      validatorCompiler: () => () => true,
      schema: {
        ...common,
        summary: '创建我的 API Key',
        description: '响应中的 key 只返回这一次，请立即保存。',
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, scopes: { type: 'array', items: { type: 'integer' } } },
        },
        response: {
          200: successEnvelopeSchema(keyRow),
          ...authFailureResponses,
          409: { description: '有效 Key 已达上限', ...failureEnvelopeSchema },
          422: { description: '输入有误', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      const row = await app.resources.create(
        apiKeys,
        { name: body.name, scopes: body.scopes, userId: signedIn(request).user.id },
        actor(request),
      );
      return ok(row, '创建成功：完整 Key 只显示这一次');
    },
  );

  for (const action of ['rotate', 'revoke'] as const)
    app.post<{ Params: { id: string } }>(
      `/api/me/apiKeys/:id/${action}`,
      {
        preHandler: app.requireUser,
        schema: {
          ...common,
          summary: action === 'rotate' ? '轮换我的 API Key（新 Key 只返回这一次）' : '吊销我的 API Key',
          params: idParam,
          response: {
            200: successEnvelopeSchema(keyRow),
            ...authFailureResponses,
            404: { description: '不存在或不是自己的', ...failureEnvelopeSchema },
            409: { description: '已吊销', ...failureEnvelopeSchema },
          },
        },
      },
      async (request) => {
        const id = await ownKey(request, request.params.id);
        const row = await app.resources.action(apiKeys, id, action, {}, actor(request));
        return ok(row, app.resources.actionMessage(apiKeys, action, row));
      },
    );

  app.get(
    '/api/me/apiPlans',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '可购买的 API 套餐',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: rowOf('套餐') }),
          ...authFailureResponses,
        },
      },
    },
    async () => {
      const model = modelOf(apiPlans);
      const apis = modelOf(getResource('marketApis')).table;
      const rows = await db
        .selectFrom(`${model.table} as p`)
        .innerJoin(`${apis} as a`, 'a.id', 'p.api_id')
        .selectAll('p')
        .where('p.status', '=', 'enabled')
        .where('a.status', '=', 'enabled')
        .orderBy('p.api_id')
        .orderBy('p.price_fen')
        .execute();
      return ok(rows.map((row) => toWireRow(model, row)));
    },
  );

  app.get(
    '/api/me/apiOrders',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的 API 订单',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: rowOf('API 订单') }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => ok(await rowsOf(db, apiOrders, signedIn(request).user.id, 'created_at')),
  );

  app.post(
    '/api/me/apiOrders',
    {
      preHandler: app.requireUser,
      validatorCompiler: () => () => true,
      schema: {
        ...common,
        summary: '购买 API 套餐（从我的余额支付）',
        body: { type: 'object', required: ['planId'], properties: { planId: { type: 'integer' } } },
        response: {
          200: successEnvelopeSchema(rowOf('API 订单')),
          ...authFailureResponses,
          409: { description: '余额不足，或套餐已停用', ...failureEnvelopeSchema },
          422: { description: '输入有误', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      const row = await app.resources.create(
        apiOrders,
        { planId: body.planId, userId: signedIn(request).user.id },
        actor(request),
      );
      return ok(row, '购买成功，调用额度已到账');
    },
  );

  app.get(
    '/api/me/apiQuotas',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的调用额度',
        response: {
          200: successEnvelopeSchema({ type: 'array', items: rowOf('调用额度') }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => ok(await rowsOf(db, apiQuotas, signedIn(request).user.id, 'expires_at')),
  );
};
