/**
 * The chat bots' replies (core's chatBotReply: the first rule whose keyword the message holds):
 *
 *   POST /api/admin/chatBots/:id/reply   {message} → {reply, ruleIndex}   (the admin's test box;
 *        any bot, enabled or not, so a bot can be tried before it is switched on)
 *   POST /api/public/chat-bots/:id/reply {message} → {reply, ruleIndex}   (enabled bots only;
 *        a disabled or missing bot is the same 404)
 *
 * The public route is limited per address: PUBLIC_REPLIES_PER_MINUTE in a fixed minute, then
 * 429 with Retry-After until the minute ends. A reply writes nothing, so unlike sign-in and the
 * merchant form there are no rows to count: the count is a row of rate_windows (db/rate-window.ts),
 * shared by every server process on the database.
 */
import { CHAT_MESSAGE_MAX, chatBotReply, getResource } from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { takeRateSlot } from '../../db/rate-window.js';
import { invalidInput, notFound, ok, tooManyRequests } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { parseId } from '../../resources/query.js';
import type { WireRow } from '../../resources/storage.js';

export const PUBLIC_REPLIES_PER_MINUTE = 30;
const BOT_NOT_FOUND = '聊天机器人不存在或未启用';

const replySchema = {
  type: 'object',
  properties: {
    reply: { type: ['string', 'null'], description: '回复内容；没有规则匹配时为 null' },
    ruleIndex: { type: ['integer', 'null'], description: '匹配的规则序号（从 0 起）' },
  },
} as const;
const body = {
  type: 'object',
  // No type on the property: Fastify would coerce a number to a string; messageOf() checks it.
  properties: { message: { description: `用户消息（字符串，最多 ${CHAT_MESSAGE_MAX} 字）` } },
} as const;
const params = { type: 'object', properties: { id: { type: 'string' } } } as const;

function messageOf(request: FastifyRequest): string {
  const raw = (request.body as { message?: unknown } | null | undefined)?.message;
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidInput({ message: '请输入消息' });
  if (raw.length > CHAT_MESSAGE_MAX) throw invalidInput({ message: `消息不能超过 ${CHAT_MESSAGE_MAX} 个字` });
  return raw;
}

export const chatBotRoutes: FastifyPluginAsync = async (app) => {
  const def = getResource('chatBots');

  async function botOf(
    request: FastifyRequest<{ Params: { id: string } }>,
    message: string,
  ): Promise<WireRow> {
    const id = parseId(request.params.id);
    const bot = id === null ? null : await app.resources.get(def, id).catch(() => null);
    if (!bot) throw notFound(message);
    return bot;
  }

  /** Counts a public reply from `ip`; throws 429 past the limit. */
  async function checkRate(ip: string): Promise<void> {
    const slot = await takeRateSlot(app.db, 'chatBotReply', ip, PUBLIC_REPLIES_PER_MINUTE, app.config.now());
    if (!slot.allowed) throw tooManyRequests(slot.retryAfterMs);
  }

  app.post<{ Params: { id: string } }>(
    '/api/admin/chatBots/:id/reply',
    {
      preHandler: app.requirePermission('bbs', 'read'),
      schema: {
        tags: ['community'],
        summary: '测试聊天机器人的回复',
        security: bearerSecurity,
        params,
        body,
        response: {
          200: successEnvelopeSchema(replySchema),
          ...authFailureResponses,
          404: failureEnvelopeSchema,
          422: failureEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const message = messageOf(request);
      const bot = await botOf(request, '聊天机器人不存在');
      return ok(chatBotReply(bot.rules, message));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/public/chat-bots/:id/reply',
    {
      schema: {
        tags: ['community'],
        summary: '聊天机器人回复（已启用的机器人）',
        params,
        body,
        response: {
          200: successEnvelopeSchema(replySchema),
          404: failureEnvelopeSchema,
          422: failureEnvelopeSchema,
          429: failureEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const message = messageOf(request);
      await checkRate(request.ip);
      const bot = await botOf(request, BOT_NOT_FOUND);
      if (bot.enabled !== true) throw notFound(BOT_NOT_FOUND);
      return ok(chatBotReply(bot.rules, message));
    },
  );
};
