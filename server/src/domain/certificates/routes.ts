/**
 * A signed-in user's certificate checks and watches (any signed-in user; API.md "Business
 * contracts"). Targets are reached under the user's outbound policy: without monitor:write,
 * loopback, private, link-local and metadata addresses are refused (422 on `host`) and nothing
 * connects.
 *
 *   POST   /api/me/ssl/check       {host, port?, starttls?, servername?, ca?} → the check
 *   GET    /api/me/ssl?status=     the user's watches (sslJobs they own), soonest expiry first
 *   POST   /api/me/ssl             {host, port?, starttls?, servername?, notifyDays?, ca?} →
 *                                  the watch, created and checked at once
 *   DELETE /api/me/ssl/{id}        404 for another user's
 *   POST   /api/me/ssl/{id}/check  → {sslJob, check}
 */
import {
  CERTIFICATE_VERDICTS,
  DEFAULT_NOTIFY_DAYS,
  getResource,
  STARTTLS_DEFAULT_PORTS,
  type StarttlsProtocol,
  validateInput,
} from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { conflict, invalidInput, notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { OutboundRefusedError, outboundPolicyOf, resolveOutbound } from '../../net/outbound.js';
import { toWireRow, type WireRow } from '../../resources/storage.js';
import { signedIn } from '../auth/index.js';
import { checkCertificate } from './check.js';
import { sslJobModel, sslJobOf } from './jobs.js';
import { parseCaBundle } from './resource.js';
import { checkJob } from './service.js';
import { settingsOf } from './settings.js';

/** Watches one user may keep (every user, administrators too: each is a handshake every few hours). */
export const MAX_WATCHES_PER_USER = 50;

const chainEntrySchema = {
  type: 'object',
  properties: {
    subject: { type: 'string' },
    issuer: { type: 'string' },
    sans: { type: 'array', items: { type: 'string' } },
    notBefore: { type: 'string', format: 'date-time' },
    notAfter: { type: 'string', format: 'date-time' },
    fingerprint256: { type: 'string' },
    serialNumber: { type: 'string' },
    keyType: { type: 'string', nullable: true },
    keySize: { type: 'integer', nullable: true },
    selfSigned: { type: 'boolean' },
  },
} as const;

const checkSchema = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: [...CERTIFICATE_VERDICTS] },
    reason: { type: 'string', description: '结论的中文说明' },
    daysLeft: { type: 'integer', nullable: true, description: '剩余整天数（已过期为负）；未取得证书为 null' },
    host: { type: 'string' },
    port: { type: 'integer' },
    checkedAt: { type: 'string', format: 'date-time' },
    chain: { type: 'array', items: chainEntrySchema, description: '证书链，叶证书在前' },
  },
} as const;

const watchSchema = {
  type: 'object',
  description: 'sslJobs 的一行（字段见资源定义）；从未检测的任务 daysLeft、notAfter 等为 null',
  additionalProperties: true,
} as const;

const targetBodySchema = {
  type: 'object',
  required: ['host'],
  properties: {
    host: { type: 'string', description: '域名或 IPv4，如 www.example.com' },
    port: { type: 'integer', description: '默认 443；STARTTLS 时默认该协议端口（25/143/110）' },
    starttls: { type: 'string', enum: ['none', 'smtp', 'imap', 'pop3'] },
    servername: { type: 'string', description: 'SNI 及校验用的域名，默认为 host' },
    ca: { type: 'string', description: '额外信任的根证书（PEM），与系统根证书一同信任' },
  },
} as const;

interface Target {
  host: string;
  port: number;
  starttls: StarttlsProtocol | 'none';
  servername: string | null;
  caBundle: string | null;
}

/** The sslJobs fields a target is validated with: the same rules as the admin form. */
function targetFields() {
  const f = getResource('sslJobs').fields;
  return {
    host: f.host,
    port: { ...f.port, required: false, default: undefined },
    starttls: { ...f.starttls, default: undefined },
    servername: f.servername,
    caBundle: f.caBundle,
    notifyDays: f.notifyDays,
  } as Record<string, NonNullable<typeof f.host>>;
}

/** A body → a target (422 per field, in the admin form's words), `ca` read as the CA bundle; the API market's sslCheck reads it too. */
export function readTarget(body: unknown): Target & { notifyDays?: number[] } {
  const raw = body && typeof body === 'object' ? { ...(body as Record<string, unknown>) } : {};
  if (raw.ca !== undefined) raw.caBundle = raw.ca;
  delete raw.ca;
  if (typeof raw.host === 'string') raw.host = raw.host.trim().toLowerCase();
  const checked = validateInput(targetFields(), raw);
  if (!checked.ok) {
    const { caBundle, ...fields } = checked.fields;
    throw invalidInput(caBundle ? { ...fields, ca: caBundle } : fields);
  }
  const v = checked.value;
  const caBundle = typeof v.caBundle === 'string' && v.caBundle.trim() !== '' ? v.caBundle : null;
  if (caBundle) {
    const parsed = parseCaBundle(caBundle);
    if ('error' in parsed) throw invalidInput({ ca: parsed.error });
  }
  const starttls = (v.starttls as Target['starttls'] | undefined) ?? 'none';
  const port =
    (v.port as number | undefined) ?? (starttls === 'none' ? 443 : STARTTLS_DEFAULT_PORTS[starttls]);
  return {
    host: String(v.host),
    port,
    starttls,
    servername: (v.servername as string | undefined) || null,
    caBundle,
    notifyDays: v.notifyDays as number[] | undefined,
  };
}

export const certificateRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as Parameters<typeof sslJobOf>[0];
  const common = { tags: ['monitor'], security: bearerSecurity };
  const timeoutMs = () => settingsOf(db).timeoutMs;
  const env = () => ({
    db,
    now: app.config.now,
    timeoutMs: timeoutMs(),
    publish: (topic: string, data: unknown) => app.hub.publish(topic, data),
  });
  const policyOf = (request: FastifyRequest) => outboundPolicyOf(signedIn(request).user.permissions);

  /** The policy's refusal as the form shows it; nothing was connected. */
  const refused = (error: unknown): never => {
    if (error instanceof OutboundRefusedError) throw invalidInput({ host: error.message }, error.message);
    throw error;
  };

  /** The user's own job, or 404 (another user's job is no different from none). */
  const ownJob = async (request: FastifyRequest, rawId: string): Promise<WireRow> => {
    const id = Number(rawId);
    const job = Number.isSafeInteger(id) && id > 0 ? await sslJobOf(db, id) : null;
    if (!job || job.ownerId !== signedIn(request).user.id) throw notFound('证书任务不存在');
    return job;
  };

  app.post(
    '/api/me/ssl/check',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '检测证书（真实 TLS 握手）',
        description:
          '任意端口；STARTTLS 支持 SMTP/IMAP/POP3。结论：ok / expiring（剩余天数 ≤ 21）/ expired / mismatch / ' +
          'untrusted（自签名、颁发者未知、证书链不完整）/ unreachable，附中文说明。没有监控权限的用户不能检测本机、内网、' +
          '链路本地地址（422，不会发起连接）。',
        body: targetBodySchema,
        response: {
          200: successEnvelopeSchema(checkSchema),
          ...authFailureResponses,
          422: { description: '输入有误，或目标地址不允许连接', ...failureEnvelopeSchema },
        },
      },
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const target = readTarget(request.body);
      const result = await checkCertificate({
        ...target,
        caPem: target.caBundle,
        policy: policyOf(request),
        timeoutMs: timeoutMs(),
        now: app.config.now(),
        notifyDays: DEFAULT_NOTIFY_DAYS,
      }).catch(refused);
      return ok(result);
    },
  );

  app.get<{ Querystring: { status?: string } }>(
    '/api/me/ssl',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的证书监控',
        description: `到期最早的在前（未检测的在后），最多 ${MAX_WATCHES_PER_USER} 个。status 可筛选 pending/ok/expiring/expired/error。`,
        querystring: { type: 'object', properties: { status: { type: 'string' } } },
        response: {
          200: successEnvelopeSchema({ type: 'array', items: watchSchema }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const model = sslJobModel();
      let qb = db
        .selectFrom(model.table)
        .selectAll()
        .where(sql.ref('owner_id'), '=', signedIn(request).user.id)
        .orderBy(sql`case when not_after is null then 1 else 0 end`)
        .orderBy(sql.ref('not_after'))
        .orderBy(sql.ref('id'))
        .limit(MAX_WATCHES_PER_USER);
      if (request.query.status) qb = qb.where(sql.ref('status'), '=', request.query.status);
      const rows = await qb.execute();
      return ok(rows.map((row) => toWireRow(model, row)));
    },
  );

  app.post(
    '/api/me/ssl',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '添加证书监控',
        description:
          '创建后立即检测一次，之后按检测间隔（默认 6 小时）检测；每个提醒天数（默认 7/14/21）对同一张证书只提醒一次。',
        body: {
          ...targetBodySchema,
          properties: {
            ...targetBodySchema.properties,
            notifyDays: { type: 'array', items: { type: 'integer' }, description: '如 [7, 14, 21]' },
          },
        },
        response: {
          200: successEnvelopeSchema(watchSchema),
          ...authFailureResponses,
          409: { description: `已达上限（${MAX_WATCHES_PER_USER} 个）或已在监控`, ...failureEnvelopeSchema },
          422: { description: '输入有误，或目标地址不允许连接', ...failureEnvelopeSchema },
        },
      },
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const user = signedIn(request).user;
      const target = readTarget(request.body);
      // Refused before anything is written; a name that does not resolve now is the check's to report.
      await resolveOutbound(target.host, policyOf(request), { timeoutMs: timeoutMs() }).catch((error) =>
        error instanceof OutboundRefusedError ? refused(error) : undefined,
      );
      const model = sslJobModel();
      const mine = await db
        .selectFrom(model.table)
        .select([sql.ref('host').as('host'), sql.ref('port').as('port'), sql.ref('starttls').as('starttls')])
        .where(sql.ref('owner_id'), '=', user.id)
        .execute();
      if (mine.length >= MAX_WATCHES_PER_USER) throw conflict(`最多监控 ${MAX_WATCHES_PER_USER} 个证书`);
      if (mine.some((r) => r.host === target.host && Number(r.port) === target.port))
        throw conflict(`已在监控 ${target.host}:${target.port}`);
      const created = await app.resources.create(
        getResource('sslJobs'),
        {
          host: target.host,
          port: target.port,
          starttls: target.starttls,
          servername: target.servername,
          caBundle: target.caBundle,
          notifyDays: target.notifyDays ?? [...DEFAULT_NOTIFY_DAYS],
          ownerId: user.id,
        },
        { user: request.user, ip: request.ip },
      );
      const checked = await checkJob(env(), created, request.log);
      return ok(checked.job, '已添加监控');
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/me/ssl/:id',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '删除证书监控',
        response: {
          200: successEnvelopeSchema({ type: 'null' }),
          ...authFailureResponses,
          404: { description: '不存在或不是自己的', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const job = await ownJob(request, request.params.id);
      await app.resources.remove(getResource('sslJobs'), job.id, { user: request.user, ip: request.ip });
      return ok(null, '已删除');
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/me/ssl/:id/check',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '立即检测我的证书监控',
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: { sslJob: watchSchema, check: checkSchema },
          }),
          ...authFailureResponses,
          404: { description: '不存在或不是自己的', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const job = await ownJob(request, request.params.id);
      const checked = await checkJob(env(), job, request.log);
      return ok({ sslJob: checked.job, check: checked.result });
    },
  );
};
