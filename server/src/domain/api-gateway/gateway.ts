/**
 * `ANY /cloud/api/{code}` and `/cloud/api/{code}/*` (API.md "Business contracts"): the key,
 * the API, its scope and method, the rate limit and the quota, then the tool, then one
 * transaction that settles and meters the call (ledger.ts). The order of the checks, and what
 * each answers (the platform's envelope, Chinese messages):
 *
 * 1. `{code}` — 404 JSON for an unknown code (never the site's HTML), key or not: the codes are
 *    the market's public catalogue, so saying which exist gives nothing away;
 * 2. key from `X-Api-Key` or `?apikey=` — 401 none, malformed, unknown, revoked, owner disabled;
 * 3. API disabled, or not in the key's scopes — 403;
 * 4. method (marketApis.method GET / POST / ANY; HEAD goes with GET) — 405 with `Allow`;
 * 5. rate window full — 429 with `Retry-After` (seconds to the window's end);
 * 6. no free or paid quota left — 429 with `Retry-After` when a free quota renews next month;
 * 7. the tool: its answer with 200, or its 422 / 500.
 *
 * From 3 on every answer carries `X-RateLimit-Limit/Remaining/Reset` (the key's window for this
 * API; a 404 has no API, hence no limit to report, and a 401 no key). From 4 on the call is metered (README.md).
 */
import {
  type CallOutcome,
  isApiKeyShaped,
  methodAccepted,
  type QuotaSource,
  quotaMonthOf,
  rateLimitHeaders,
  rateWindowOf,
  retryAfterSeconds,
} from '@wanxiang/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/envelope.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { hashApiKey } from '../api-market/key-hash.js';
import { apiByCode, type GatewayApi, keyByHash, precheck, settleCall, windowUsed } from './ledger.js';
import { TOOLS } from './tools.js';

/** lastUsedAt is written at most once a minute per key and process: a use is not worth a write per call. */
export const LAST_USED_EVERY_MS = 60_000;

const JSON_TYPE = 'application/json; charset=utf-8';

function fail(reply: FastifyReply, status: number, message: string, extra?: Record<string, unknown>) {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send({ success: false, errorCode: status, message, ...(extra ? { data: extra } : {}) });
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header.trim();
  const query = (request.query ?? {}) as Record<string, unknown>;
  return typeof query.apikey === 'string' && query.apikey !== '' ? query.apikey.trim() : null;
}

/** The tool's input: the query string without the key, and a JSON object body over it. */
function inputOf(request: FastifyRequest): Record<string, unknown> {
  const { apikey: _key, ...query } = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)
    ? { ...query, ...(body as Record<string, unknown>) }
    : query;
}

/** Seconds to the next China month, when the API's free quota renews then. */
function untilNextMonth(now: number): number {
  const month = quotaMonthOf(now);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 1) - 8 * 3_600_000;
  return Math.max(1, Math.ceil((next - now) / 1000));
}

export function gatewayHandler(app: FastifyInstance) {
  const db = app.db as unknown as AnyDb;
  const lastTouched = new Map<number, number>();

  return async function gateway(request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply) {
    const started = performance.now();
    const code = request.params.code;
    const api = await apiByCode(db, code);
    if (!api) return fail(reply, 404, `接口不存在：${code.slice(0, 40)}`);

    const raw = keyOf(request);
    if (raw === null) return fail(reply, 401, '缺少 API Key：请在请求头 X-Api-Key 或参数 apikey 中提供');
    if (!isApiKeyShaped(raw)) return fail(reply, 401, 'API Key 无效');
    const key = await keyByHash(db, hashApiKey(raw));
    if (!key) return fail(reply, 401, 'API Key 无效');
    if (key.status !== 'active') return fail(reply, 401, 'API Key 已吊销');
    if (!key.userActive) return fail(reply, 401, 'API Key 所属账号已停用');

    const now = app.config.now();
    const window = rateWindowOf(now);
    const headers = (used: number) => reply.headers(rateLimitHeaders(api.rateLimitPerMin, used, window));

    if (api.status !== 'enabled' || (key.scopes.length > 0 && !key.scopes.includes(api.id))) {
      headers(await windowUsed(db, key.id, api.id, window));
      return fail(reply, 403, api.status !== 'enabled' ? '该接口已停用' : '此 API Key 无权调用该接口');
    }

    const settle = async (wanted: CallOutcome, httpStatus: number, sources: readonly QuotaSource[] = []) => {
      const touchKey = now - (lastTouched.get(key.id) ?? key.lastUsedAt ?? 0) >= LAST_USED_EVERY_MS;
      if (touchKey) lastTouched.set(key.id, now);
      const settled = await settleCall(db, {
        key,
        api,
        window,
        now,
        wanted,
        sources,
        httpStatus,
        latencyMs: performance.now() - started,
        touchKey,
      });
      bumpVersion(db, 'apiCalls');
      if (settled.outcome === 'ok' && sources.some((s) => s.kind === 'paid')) bumpVersion(db, 'apiQuotas');
      headers(settled.windowUsed);
      return settled.outcome;
    };
    const refuse = (outcome: CallOutcome) => refusal(reply, outcome, api, now, window.end);

    if (!methodAccepted(api.method, request.method)) {
      const outcome = await settle('error', 405);
      if (outcome !== 'error') return refuse(outcome);
      reply.header('allow', api.method === 'GET' ? 'GET, HEAD' : api.method);
      return fail(reply, 405, `该接口只接受 ${api.method} 请求`);
    }

    // Read-only pre-checks: a caller over the limit or out of quota does not get the tool run.
    const pre = await precheck(db, key, api, window, now);
    if (pre.windowUsed >= api.rateLimitPerMin) return refuse(await settle('rateLimited', 429));
    const sources = pre.sources;
    if (sources.length === 0) return refuse(await settle('noQuota', 429));

    const tool = TOOLS[api.handler];
    let status = 200;
    let body: unknown;
    try {
      if (!tool) throw new Error(`no gateway tool for handler ${api.handler}`);
      body = { success: true, data: await tool(inputOf(request), { db, dialect: app.dbDialect, now }) };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        status = error.status;
        body = error.toEnvelope();
      } else {
        request.log.error({ err: error, api: api.code }, 'gateway tool failed');
        status = 500;
        body = {
          success: false,
          errorCode: 500,
          message: '接口内部错误，请稍后重试',
          data: { requestId: request.id },
        };
      }
    }
    const outcome = await settle(status === 200 ? 'ok' : 'error', status, sources);
    if (outcome === 'rateLimited' || outcome === 'noQuota') return refuse(outcome);
    return reply.code(status).type(JSON_TYPE).send(body);
  };
}

function refusal(reply: FastifyReply, outcome: CallOutcome, api: GatewayApi, now: number, windowEnd: number) {
  if (outcome === 'rateLimited') {
    const seconds = retryAfterSeconds(now, { start: windowEnd - 60_000, end: windowEnd });
    reply.header('retry-after', String(seconds));
    return fail(reply, 429, `调用太频繁：每分钟最多 ${api.rateLimitPerMin} 次，请 ${seconds} 秒后再试`, {
      retryAfterS: seconds,
    });
  }
  if (api.freeQuota > 0) {
    const seconds = untilNextMonth(now);
    reply.header('retry-after', String(seconds));
    return fail(reply, 429, '调用额度已用完：本月免费额度已用尽且没有可用的套餐额度，请购买套餐', {
      retryAfterS: seconds,
    });
  }
  return fail(reply, 429, '调用额度已用完：没有可用的套餐额度，请购买套餐');
}
