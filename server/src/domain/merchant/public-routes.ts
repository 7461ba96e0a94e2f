/**
 * Merchant onboarding from the public site (/merchant_join), no login (API.md "Public"):
 *
 *   POST /api/public/merchant-applications                → {number, status, statusLabel}
 *        a new application (the server assigns the number), or — with `number` — the resubmission
 *        of a rejected one, which overwrites it
 *   GET  /api/public/merchant-applications/{number}       → MerchantApplicationStatus
 *   POST /api/public/merchant-applications/license-image  → {url} (multipart `file`, JPG/PNG/WEBP ≤ 5 MB)
 *
 * Writes go through the resource engine (core's validation, masked companions, audit rows with
 * the visitor's address), so the admin screen wechat/merchant sees exactly what was sent. See
 * README.md in this folder for the decisions (numbers, states, rate limits).
 */
import { randomInt } from 'node:crypto';
import {
  chinaCompactStamp,
  MERCHANT_JOIN_FIELDS,
  type MerchantApplicationStatus,
  merchantApplications,
  merchantFieldLabel,
  merchantStatusLabel,
  validateMerchantJoin,
} from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { blobIdOf } from '../../files/blob-store.js';
import { registerUploads } from '../../files/uploads.js';
import { conflict, invalidInput, notFound, ok, tooManyRequests } from '../../http/envelope.js';
import { failureEnvelopeSchema, successEnvelopeSchema } from '../../http/schemas.js';
import { writeAudit } from '../../resources/audit.js';
import type { WireRow } from '../../resources/storage.js';
import { acceptUpload, IMAGE_UPLOAD } from '../media/uploads.js';

const def = merchantApplications;
const HOUR = 3_600_000;

/** Per address and rolling hour (README.md): enough for a family business behind one NAT. */
export const SUBMISSIONS_PER_HOUR = 5;
export const LICENSE_UPLOADS_PER_HOUR = 20;

const NUMBER = /^[A-Za-z0-9_-]{6,32}$/;
/** No 0/O, 1/I: a number read out over the phone is not misheard. */
const NUMBER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `MJ` + the China date + 10 random characters (50 bits): unguessable, so it can be a lookup key. */
export function newApplicationNumber(now: number): string {
  const date = chinaCompactStamp(now).slice(0, 8);
  let tail = '';
  for (let i = 0; i < 10; i++) tail += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return `MJ${date}${tail}`;
}

const documentOnly = () => () => true;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const statusSchema = {
  type: 'object',
  properties: {
    number: { type: 'string' },
    status: { type: 'string' },
    statusLabel: { type: 'string', description: '如 审核中、已驳回' },
    shortName: { type: 'string' },
    submittedAt: { type: ['string', 'null'] },
    updatedAt: { type: 'string' },
    auditDetail: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, label: { type: 'string' }, reason: { type: 'string' } },
      },
    },
    canResubmit: { type: 'boolean' },
  },
} as const;

function publicStatus(row: WireRow): MerchantApplicationStatus {
  const detail = Array.isArray(row.auditDetail)
    ? (row.auditDetail as { field: string; reason: string }[])
    : [];
  const status = String(row.status);
  return {
    number: String(row.number),
    status,
    statusLabel: merchantStatusLabel(status),
    shortName: String(row.shortName ?? ''),
    submittedAt: (row.submittedAt as string | null) ?? null,
    updatedAt: String(row.updatedAt),
    auditDetail:
      status === 'rejected'
        ? detail.map((d) => ({ field: d.field, label: merchantFieldLabel(d.field), reason: d.reason }))
        : [],
    canResubmit: status === 'rejected',
  };
}

export const merchantPublicRoutes: FastifyPluginAsync = async (app) => {
  await registerUploads(app, [IMAGE_UPLOAD]);
  const actorOf = (request: FastifyRequest) => ({ user: null, ip: request.ip });

  /** Anonymous writes of this area from `ip` within the hour (audit rows are the counter). */
  async function recentWrites(ip: string, actions: readonly string[], now: number): Promise<number[]> {
    const rows: { at: number | string }[] = await app.resources.db
      .selectFrom('audit_logs')
      .select('created_at as at')
      .where('created_at', '>', now - HOUR)
      .where('ip', '=', ip)
      .where('action', 'in', actions)
      .where('user_id', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => Number(r.at));
  }

  async function checkRate(ip: string, actions: readonly string[], limit: number): Promise<void> {
    const now = app.config.now();
    const times = await recentWrites(ip, actions, now);
    if (times.length >= limit) {
      const oldestCounted = times[limit - 1] as number;
      throw tooManyRequests(oldestCounted + HOUR - now);
    }
  }

  async function findByNumber(number: string): Promise<WireRow | null> {
    const answer = await app.resources.list(def, { number, limit: 1, withTotal: 'false' });
    return answer.results[0] ?? null;
  }

  /** The licence image must be a file uploaded here (not any URL a visitor types). */
  async function checkLicenseImage(values: Record<string, unknown>): Promise<void> {
    const id = blobIdOf(typeof values.licenseImage === 'string' ? values.licenseImage : null);
    if (!id || !(await app.blobs.exists(id))) throw invalidInput({ licenseImage: '请上传营业执照照片' });
  }

  app.post(
    '/api/public/merchant-applications',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: ['public'],
        summary: '提交商户入驻申请（无需登录）；带 number 时重新提交已驳回的申请并覆盖',
        description: `同一地址每小时最多提交 ${SUBMISSIONS_PER_HOUR} 次。字段同 merchantApplications（number 由服务器分配）。`,
        body: {
          type: 'object',
          properties: {
            number: { type: 'string', description: '仅重新提交时填写' },
            ...Object.fromEntries(MERCHANT_JOIN_FIELDS.map((name) => [name, {}])),
          },
        },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              number: { type: 'string' },
              status: { type: 'string' },
              statusLabel: { type: 'string' },
            },
          }),
          404: { description: '重新提交的编号不存在', ...failureEnvelopeSchema },
          409: { description: '该申请当前状态不能重新提交', ...failureEnvelopeSchema },
          422: { description: '输入有误（data.fields 逐项说明）', ...failureEnvelopeSchema },
          429: { description: '提交过于频繁', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const body = request.body;
      if (!isPlainObject(body)) throw invalidInput(undefined, '请求内容须为对象');
      const { number: given, ...values } = body;
      const actor = actorOf(request);

      if (given === undefined || given === null || given === '') {
        const number = newApplicationNumber(app.config.now());
        const validated = validateMerchantJoin(values, number);
        if (!validated.ok) throw invalidInput(validated.fields);
        await checkLicenseImage(values);
        await checkRate(
          request.ip,
          ['merchantApplications.create', 'merchantApplications.update'],
          SUBMISSIONS_PER_HOUR,
        );
        const created = await app.resources.create(def, { ...values, number }, actor);
        const submitted = await app.resources.action(
          def,
          Number(created.id),
          'submit',
          {},
          actor,
          String(created.updatedAt),
        );
        return ok(
          { number, status: submitted.status, statusLabel: merchantStatusLabel(String(submitted.status)) },
          '提交成功，请记下申请编号',
        );
      }

      if (typeof given !== 'string' || !NUMBER.test(given))
        throw invalidInput({ number: '申请编号格式不正确' });
      const existing = await findByNumber(given);
      if (!existing) throw notFound('没有找到这个申请编号');
      if (existing.status !== 'rejected')
        throw conflict(
          `申请${merchantStatusLabel(String(existing.status))}，只有已驳回的申请可以修改后重新提交`,
        );
      const validated = validateMerchantJoin(values, given);
      if (!validated.ok) throw invalidInput(validated.fields);
      await checkLicenseImage(values);
      await checkRate(
        request.ip,
        ['merchantApplications.create', 'merchantApplications.update'],
        SUBMISSIONS_PER_HOUR,
      );
      const id = Number(existing.id);
      // Both steps are conditional on the row not having changed meanwhile (If-Match).
      const updated = await app.resources.update(def, id, values, actor, String(existing.updatedAt));
      const submitted = await app.resources.action(def, id, 'submit', {}, actor, String(updated.updatedAt));
      return ok(
        {
          number: given,
          status: submitted.status,
          statusLabel: merchantStatusLabel(String(submitted.status)),
        },
        '已重新提交',
      );
    },
  );

  app.get<{ Params: { number: string } }>(
    '/api/public/merchant-applications/:number',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: ['public'],
        summary: '查询商户入驻申请的审核进度（无需登录；不含任何个人或账户信息）',
        params: {
          type: 'object',
          properties: { number: { type: 'string', title: '申请编号', pattern: NUMBER.source } },
        },
        response: {
          200: successEnvelopeSchema(statusSchema),
          404: { description: '没有这个申请编号', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const { number } = request.params;
      const missing = () => notFound('没有找到这个申请编号，请核对后再试');
      if (!NUMBER.test(number)) throw missing();
      const row = await findByNumber(number);
      if (!row) throw missing();
      return ok(publicStatus(row));
    },
  );

  app.post(
    '/api/public/merchant-applications/license-image',
    {
      schema: {
        tags: ['public'],
        summary: '上传营业执照照片（multipart 字段 file；JPG/PNG/WEBP，最大 5 MB）',
        description: `同一地址每小时最多上传 ${LICENSE_UPLOADS_PER_HOUR} 次。`,
        consumes: ['multipart/form-data'],
        response: {
          200: successEnvelopeSchema({ type: 'object', properties: { url: { type: 'string' } } }),
          413: { description: '文件过大', ...failureEnvelopeSchema },
          422: { description: '不是支持的图片', ...failureEnvelopeSchema },
          429: { description: '上传过于频繁', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const action = 'merchantApplications.uploadLicenseImage';
      await checkRate(request.ip, [action], LICENSE_UPLOADS_PER_HOUR);
      const blob = await acceptUpload(request, app.blobs, IMAGE_UPLOAD);
      const now = app.config.now();
      await writeAudit(app.resources.db, {
        userId: null,
        action,
        resource: def.name,
        recordId: null,
        before: null,
        after: { licenseImage: blob.url },
        ip: request.ip,
        now,
      });
      return ok({ url: blob.url }, '上传成功');
    },
  );
};
