/** The auth routes of API.md "Auth": captcha, sign-in, current user, sign-out. */
import { ErrorCode, messages, type SignInRequest, t } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError, ok, tooManyRequests } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { signedIn } from './auth-plugin.js';
import { consumeCaptcha, issueCaptcha } from './captcha.js';
import { verifyDummy, verifyPassword } from './passwords.js';
import { openSession, revokeSession } from './sessions.js';
import { recordSignInAttempt, signInRetryAfterMs } from './signin-limits.js';
import { findUserByUsername } from './users.js';

const signInBodySchema = {
  type: 'object',
  required: ['username', 'password', 'captchaId', 'captchaCode'],
  properties: {
    username: { type: 'string', title: messages.username, minLength: 1, maxLength: 64 },
    password: { type: 'string', title: messages.password, minLength: 1, maxLength: 256 },
    captchaId: { type: 'string', title: messages.captchaId, minLength: 1, maxLength: 64 },
    captchaCode: { type: 'string', title: messages.captchaCode, minLength: 1, maxLength: 16 },
  },
} as const;

const currentUserSchema = {
  type: 'object',
  required: ['id', 'username', 'nickname', 'roles', 'permissions'],
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    nickname: { type: ['string', 'null'] },
    avatar: { type: ['string', 'null'] },
    roles: { type: 'array', items: { type: 'string' } },
    permissions: { type: 'array', items: { type: 'string' }, description: '`<area>:read|write`' },
  },
} as const;

const loginFailure = (errorCode: number, message: string) =>
  new ApiError({ status: 200, errorCode, message });

export const authRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app;

  app.get(
    '/api/captcha/request',
    {
      schema: {
        tags: ['auth'],
        summary: '获取图形验证码（一次性，5 分钟内有效）',
        response: {
          200: {
            type: 'object',
            description: '注意：captchaId 与 data 位于顶层',
            required: ['success', 'captchaId', 'data'],
            properties: {
              success: { type: 'boolean', const: true },
              captchaId: { type: 'string' },
              data: { type: 'string', description: 'data:image/svg+xml;base64,…' },
            },
          },
        },
      },
    },
    async () => {
      const captcha = await issueCaptcha(db, config.now());
      return { success: true, captchaId: captcha.captchaId, data: captcha.image };
    },
  );

  app.post<{ Body: SignInRequest }>(
    '/api/login/signin',
    {
      schema: {
        tags: ['auth'],
        summary: '用户名、密码与验证码登录',
        description:
          '失败时 HTTP 200：errorCode 10001 验证码错误，10002 用户名或密码错误，10003 账号已停用；' +
          '同一用户名 15 分钟内失败 5 次、或同一地址失败 20 次后返回 429 与 Retry-After。',
        body: signInBodySchema,
        response: {
          200: {
            anyOf: [
              successEnvelopeSchema({
                type: 'object',
                required: ['token', 'authority', 'expire'],
                properties: {
                  token: { type: 'string' },
                  authority: { type: 'array', items: { type: 'string' } },
                  expire: { type: 'integer', description: 'epoch ms' },
                },
              }),
              failureEnvelopeSchema,
            ],
          },
          422: failureEnvelopeSchema,
          429: failureEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const { username, password, captchaId, captchaCode } = request.body;
      const now = config.now();
      const key = { username, ip: request.ip };

      // Order matters: the limit first (a blocked caller learns nothing and burns no captcha),
      // then the captcha (so passwords cannot be tried without solving one), then the password.
      const wait = await signInRetryAfterMs(db, key, now);
      if (wait !== null) throw tooManyRequests(wait);

      if (!(await consumeCaptcha(db, captchaId, captchaCode, now, config.captchaTestCode))) {
        throw loginFailure(ErrorCode.wrongCaptcha, t('wrongCaptcha'));
      }

      const user = await findUserByUsername(db, username);
      const passwordOk = user
        ? await verifyPassword(user.password_hash, password)
        : await verifyDummy(password);
      if (!user || !passwordOk) {
        await recordSignInAttempt(db, key, false, now);
        throw loginFailure(ErrorCode.wrongCredentials, t('wrongCredentials'));
      }
      // Only someone who knows the password learns that the account is disabled.
      if (user.status !== 'active') {
        await recordSignInAttempt(db, key, false, now);
        throw loginFailure(ErrorCode.accountDisabled, t('accountDisabled'));
      }

      await recordSignInAttempt(db, key, true, now);
      const session = await db.transaction().execute((trx) =>
        openSession(trx, {
          userId: user.id,
          ttlMs: config.sessionTtlMs,
          now,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        }),
      );
      return ok(
        { token: session.token, authority: session.authority, expire: session.expiresAt },
        t('loginSucceeded'),
      );
    },
  );

  app.get(
    '/api/user/current',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['auth'],
        summary: '当前登录用户',
        security: bearerSecurity,
        response: { 200: successEnvelopeSchema(currentUserSchema), ...authFailureResponses },
      },
    },
    async (request) => {
      const { id, username, nickname, avatar, roles, permissions } = signedIn(request).user;
      return ok({ id, username, nickname, avatar, roles, permissions });
    },
  );

  app.get(
    '/api/login/signout',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['auth'],
        summary: '退出登录（令牌在服务器端作废）',
        security: bearerSecurity,
        response: { 200: successEnvelopeSchema({ type: 'null' }), ...authFailureResponses },
      },
    },
    async (request) => {
      await revokeSession(db, signedIn(request).sessionId, 'signout', config.now());
      return ok(null, t('signedOut'));
    },
  );
};
