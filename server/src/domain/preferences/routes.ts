/**
 * Each signed-in user's own preferences — column choices, page size, saved filters, open tabs —
 * kept on the server so they follow the user to another browser. Any signed-in user, no role
 * needed; a user only ever sees and changes their own.
 *
 *   GET    /api/me/preferences          → {key: value, …}
 *   PUT    /api/me/preferences/{key}    {value: <any JSON, ≤ 64 KB>}
 *   DELETE /api/me/preferences/{key}
 */
import { t } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError, invalidInput, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { signedIn } from '../auth/index.js';

export const PREFERENCE_KEY = /^[A-Za-z0-9:_./-]{1,100}$/;
export const MAX_PREFERENCE_BYTES = 64 * 1024;
/** Enough for every screen's settings many times over; a bound on what one account can store. */
export const MAX_PREFERENCES_PER_USER = 500;

const keyParam = {
  type: 'object',
  properties: {
    key: { type: 'string', pattern: PREFERENCE_KEY.source, description: '如 list:orders:columns' },
  },
} as const;
const failures = {
  ...authFailureResponses,
  422: { description: '键或值不合规', ...failureEnvelopeSchema },
} as const;
const documentOnly = () => () => true;

function checkKey(key: string): void {
  if (!PREFERENCE_KEY.test(key)) throw invalidInput({ key: '键只能包含字母、数字和 :_./-，最多 100 个字符' });
}

export const preferencesRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;

  app.get(
    '/api/me/preferences',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['auth'],
        summary: '当前用户的偏好设置',
        security: bearerSecurity,
        response: {
          200: successEnvelopeSchema({ type: 'object', additionalProperties: true }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('user_preferences')
        .select(['key', 'value'])
        .where('user_id', '=', signedIn(request).user.id)
        .orderBy('key')
        .execute();
      const out: Record<string, unknown> = {};
      for (const row of rows) {
        try {
          out[row.key] = JSON.parse(row.value);
        } catch {
          // Never written by us; skipped rather than failing the whole answer.
        }
      }
      return ok(out);
    },
  );

  app.put<{ Params: { key: string } }>(
    '/api/me/preferences/:key',
    {
      preHandler: app.requireUser,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['auth'],
        summary: '保存一项偏好设置',
        security: bearerSecurity,
        params: keyParam,
        body: {
          type: 'object',
          required: ['value'],
          properties: { value: { description: '任意 JSON，最多 64 KB' } },
        },
        response: { 200: successEnvelopeSchema({ type: 'null' }), ...failures },
      },
    },
    async (request) => {
      const { key } = request.params;
      checkKey(key);
      const body = request.body as { value?: unknown } | null;
      if (
        !body ||
        typeof body !== 'object' ||
        Array.isArray(body) ||
        !('value' in body) ||
        body.value === undefined
      ) {
        throw invalidInput({ value: '请输入value' });
      }
      const json = JSON.stringify(body.value);
      if (Buffer.byteLength(json) > MAX_PREFERENCE_BYTES) throw invalidInput({ value: '偏好设置最多 64 KB' });
      const userId = signedIn(request).user.id;
      const now = app.config.now();
      const existing = await db
        .selectFrom('user_preferences')
        .select('id')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!existing) {
        const { n } = await db
          .selectFrom('user_preferences')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= MAX_PREFERENCES_PER_USER)
          throw new ApiError({
            status: 422,
            errorCode: 422,
            message: `偏好设置最多 ${MAX_PREFERENCES_PER_USER} 项`,
          });
      }
      await db
        .insertInto('user_preferences')
        .values({ user_id: userId, key, value: json, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: json, updated_at: now }))
        .execute();
      return ok(null, t('operationSucceeded'));
    },
  );

  app.delete<{ Params: { key: string } }>(
    '/api/me/preferences/:key',
    {
      preHandler: app.requireUser,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['auth'],
        summary: '删除一项偏好设置（不存在也算成功）',
        security: bearerSecurity,
        params: keyParam,
        response: { 200: successEnvelopeSchema({ type: 'null' }), ...failures },
      },
    },
    async (request) => {
      checkKey(request.params.key);
      await db
        .deleteFrom('user_preferences')
        .where('user_id', '=', signedIn(request).user.id)
        .where('key', '=', request.params.key)
        .execute();
      return ok(null);
    },
  );
};
