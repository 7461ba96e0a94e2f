/** The routes of API.md "Scan login" (fixed paths). See README.md for the flow. */
import {
  decideQrMove,
  ErrorCode,
  loginTopic,
  QR_CONFIRM_PATH,
  QR_TICKET_MOVES,
  type QrScanInfo,
  type QrStatus,
  type QrStatusName,
  type QrTicket,
  type QrTicketMove,
  qrTicketStatus,
  t,
} from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, conflict, notFound, ok, tooManyRequests } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { signedIn } from '../auth/auth-plugin.js';
import { openSession } from '../auth/sessions.js';
import {
  consume,
  createTicket,
  findTicket,
  type TicketRow,
  ticketRetryAfterMs,
  transition,
} from './tickets.js';

export const QR_MESSAGES = {
  unknown: '二维码不存在或已失效，请在登录页重新获取',
  expired: '二维码已过期，请在登录页刷新后重新扫码',
  cancelled: '本次登录已取消，请在登录页重新获取二维码',
  confirmed: '本次登录已确认，无需重复操作',
  notScanned: '请先扫码再确认',
  otherUser: '该二维码已被其他账号扫描',
} as const;

export interface QrRoutesOptions {
  ticketTtlMs: number;
}

const ticketParams = {
  type: 'object',
  required: ['ticket'],
  properties: {
    ticket: {
      type: 'string',
      title: '二维码编号',
      minLength: 16,
      maxLength: 128,
      pattern: '^[A-Za-z0-9_-]+$',
    },
  },
} as const;

const statusSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['pending', 'scanned', 'confirmed', 'expired', 'cancelled'] },
    token: { type: 'string', description: '仅在确认后的第一次查询中返回一次' },
    expire: { type: 'integer', description: 'epoch ms：有 token 时为令牌的过期时间，否则为二维码的' },
    expiresIn: { type: 'integer', description: '二维码剩余毫秒数' },
    authority: { type: 'array', items: { type: 'string' } },
    username: { type: 'string' },
  },
} as const;

type TicketRequest = FastifyRequest<{ Params: { ticket: string } }>;

/** Why a ticket in `status` cannot move on (409), in words for people. */
function illegal(status: QrStatusName): ApiError {
  switch (status) {
    case 'expired':
      return conflict(QR_MESSAGES.expired);
    case 'cancelled':
      return conflict(QR_MESSAGES.cancelled);
    case 'confirmed':
      return conflict(QR_MESSAGES.confirmed);
    case 'pending':
      return conflict(QR_MESSAGES.notScanned);
    case 'scanned':
      return conflict(QR_MESSAGES.otherUser);
  }
}

export const qrLoginRoutes: FastifyPluginAsync<QrRoutesOptions> = async (app, { ticketTtlMs }) => {
  const { db, config, hub } = app;

  /** The ticket of the URL, or 404; a collected ticket is gone for everyone. */
  async function liveTicket(request: TicketRequest): Promise<TicketRow> {
    const row = await findTicket(db, request.params.ticket);
    if (!row || row.consumedAt !== null) throw notFound(QR_MESSAGES.unknown);
    return row;
  }

  const publish = (ticket: string, status: QrStatusName) => hub.publish(loginTopic(ticket), { status });

  /**
   * The signed-in user's move, as core's decideQrMove allows it; anything else is a 409 saying
   * why, and a scan by the same user again is answered as done.
   */
  async function move(request: TicketRequest, name: QrTicketMove): Promise<TicketRow> {
    const { user } = signedIn(request);
    const now = config.now();
    const row = await liveTicket(request);
    const verdict = decideQrMove(name, qrTicketStatus(row, now), row.userId === user.id);
    if (verdict === 'already') return row;
    if (verdict !== 'go') throw illegal(verdict);
    const { from, to } = QR_TICKET_MOVES[name];
    if (!(await transition(db, row, { from, to, userId: user.id, now }))) {
      // Someone else moved it in between: say what it is now.
      throw illegal(qrTicketStatus(await liveTicket(request), now));
    }
    publish(request.params.ticket, to);
    return row;
  }

  app.post(
    '/api/login/qr',
    {
      schema: {
        tags: ['auth'],
        summary: '获取扫码登录二维码（2 分钟内有效）',
        description: `同一地址每分钟最多 30 次，超过返回 429。confirmUrl 指向确认页 ${QR_CONFIRM_PATH}/{ticket}。`,
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            required: ['ticket', 'expire', 'confirmUrl'],
            properties: {
              ticket: { type: 'string' },
              expire: { type: 'integer', description: 'epoch ms' },
              expiresIn: { type: 'integer', description: '剩余毫秒数' },
              confirmUrl: { type: 'string' },
            },
          }),
          429: failureEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const now = config.now();
      const wait = await ticketRetryAfterMs(db, request.ip, now);
      if (wait !== null) throw tooManyRequests(wait);
      const { ticket, expiresAt } = await createTicket(db, {
        now,
        ttlMs: ticketTtlMs,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      // PUBLIC_URL when configured: the Host header (and X-Forwarded-* under TRUST_PROXY) is the
      // caller's to set, and the QR code must not point wherever they like. Without it, the
      // request's own (honouring X-Forwarded-* when TRUST_PROXY says so).
      const origin = config.publicUrl ?? `${request.protocol}://${request.host}`;
      const confirmUrl = `${origin}${QR_CONFIRM_PATH}/${ticket}`;
      return ok<QrTicket>({ ticket, expire: expiresAt, expiresIn: ticketTtlMs, confirmUrl });
    },
  );

  app.get<{ Params: { ticket: string } }>(
    '/api/login/qr/:ticket',
    {
      schema: {
        tags: ['auth'],
        summary: '扫码登录状态（等待页轮询）',
        description: '确认后第一次查询返回新令牌，之后该二维码失效（404）。',
        params: ticketParams,
        response: { 200: successEnvelopeSchema(statusSchema), 404: failureEnvelopeSchema },
      },
    },
    async (request) => {
      const now = config.now();
      const row = await liveTicket(request);
      const status = qrTicketStatus(row, now);
      if (status !== 'confirmed') {
        return ok<QrStatus>({ status, expire: row.expiresAt, expiresIn: Math.max(0, row.expiresAt - now) });
      }
      // The token is minted when it is collected, so it is never stored; exactly one reader wins.
      const answer = await db.transaction().execute(async (trx) => {
        if (!(await consume(trx, row, now))) return null;
        const user = await trx
          .selectFrom('users')
          .select(['id', 'username', 'status', 'deleted_at'])
          .where('id', '=', row.userId as number)
          .executeTakeFirst();
        // Disabled between the confirmation and now: no session for them.
        if (user?.status !== 'active' || user.deleted_at !== null) return 'disabled' as const;
        const session = await openSession(trx, {
          userId: user.id,
          ttlMs: config.sessionTtlMs,
          now,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        return { ...session, username: user.username };
      });
      if (answer === null) throw notFound(QR_MESSAGES.unknown);
      if (answer === 'disabled') {
        throw new ApiError({
          status: 200,
          errorCode: ErrorCode.accountDisabled,
          message: t('accountDisabled'),
        });
      }
      return ok<QrStatus>(
        {
          status: 'confirmed',
          token: answer.token,
          expire: answer.expiresAt,
          authority: answer.authority,
          username: answer.username,
        },
        t('loginSucceeded'),
      );
    },
  );

  const userRoute = (summary: string) => ({
    preHandler: app.requireUser,
    schema: {
      tags: ['auth'],
      summary,
      security: bearerSecurity,
      params: ticketParams,
      response: {
        200: successEnvelopeSchema({ type: 'object' }),
        404: failureEnvelopeSchema,
        409: failureEnvelopeSchema,
        ...authFailureResponses,
      },
    },
  });

  app.post<{ Params: { ticket: string } }>(
    '/api/login/qr/:ticket/scan',
    userRoute('扫码：登录用户打开确认页，返回请求登录的设备信息'),
    async (request) => {
      const row = await move(request, 'scan');
      return ok<QrScanInfo>({
        status: 'scanned',
        expire: row.expiresAt,
        client: { ip: row.clientIp, userAgent: row.clientUserAgent, requestedAt: row.createdAt },
      });
    },
  );

  app.post<{ Params: { ticket: string } }>(
    '/api/login/qr/:ticket/confirm',
    userRoute('确认登录（仅限扫码的账号）：等待页随后取得新令牌'),
    async (request) => {
      await move(request, 'confirm');
      return ok<QrStatus>({ status: 'confirmed' }, '已确认登录');
    },
  );

  app.post<{ Params: { ticket: string } }>(
    '/api/login/qr/:ticket/cancel',
    userRoute('取消本次扫码登录（仅限扫码的账号）'),
    async (request) => {
      await move(request, 'cancel');
      return ok<QrStatus>({ status: 'cancelled' }, '已取消登录');
    },
  );
};
