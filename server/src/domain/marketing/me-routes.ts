/**
 * A signed-in user's own coupons (any signed-in user, no role):
 *
 *   GET  /api/me/coupons          → [{id, templateId, name, kind, valueFen, rate, goodsId, thresholdFen,
 *                                     storeIds, source, status, issuedAt, expiresAt, usedAt, orderId}]
 *                                   newest first; status reads `expired` once the expiry passed
 *   POST /api/me/coupons/redeem   {code} → the coupon it gave (as one of the list's entries)
 *                                   422 not a code's shape · 404 no such code · 409 该兑换码已被使用 /
 *                                   该兑换码已作废 / the issue rule's refusal (已发完, 每人限领)
 */
import { getResource } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { toWireRow } from '../../resources/storage.js';
import { signedIn } from '../auth/index.js';
import { redeemCode } from './exchange-codes.js';
import { model } from './rows.js';

const MAX_LISTED = 200;

const couponSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    templateId: { type: 'integer' },
    name: { type: 'string' },
    kind: { type: 'string', enum: ['cash', 'discount', 'item'] },
    valueFen: { type: 'integer', nullable: true },
    rate: { type: 'integer', nullable: true },
    goodsId: { type: 'integer', nullable: true },
    thresholdFen: { type: 'integer', nullable: true },
    storeIds: { type: 'array', items: { type: 'integer' }, nullable: true },
    source: { type: 'string' },
    status: { type: 'string', enum: ['unused', 'used', 'expired'] },
    issuedAt: { type: 'string', format: 'date-time', nullable: true },
    expiresAt: { type: 'string', format: 'date-time', nullable: true },
    usedAt: { type: 'string', format: 'date-time', nullable: true },
    orderId: { type: 'integer', nullable: true },
  },
} as const;

/** The user's coupons (or one of them) joined with their templates, as the list answers them. */
async function couponsOf(db: AnyDb, userId: number, now: number, id?: number) {
  const coupons = model('userCoupons');
  const templates = model('couponTemplates');
  let qb = db
    .selectFrom(`${coupons.table} as c`)
    .innerJoin(`${templates.table} as t`, 't.id', 'c.template_id')
    .selectAll('c')
    .select([
      sql.ref('t.name').as('t_name'),
      sql.ref('t.kind').as('t_kind'),
      sql.ref('t.value_fen').as('t_value_fen'),
      sql.ref('t.rate').as('t_rate'),
      sql.ref('t.goods_id').as('t_goods_id'),
      sql.ref('t.threshold_fen').as('t_threshold_fen'),
      sql.ref('t.store_ids').as('t_store_ids'),
    ])
    .where(sql.ref('c.user_id'), '=', userId)
    .orderBy(sql.ref('c.issued_at'), 'desc')
    .orderBy(sql.ref('c.id'), 'desc')
    .limit(MAX_LISTED);
  if (id !== undefined) qb = qb.where(sql.ref('c.id'), '=', id);
  const rows = (await qb.execute()) as Record<string, unknown>[];
  const t = getResource('couponTemplates').fields;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((row) => {
    const wire = toWireRow(coupons, row);
    const expired =
      wire.status === 'unused' && wire.expiresAt !== null && Date.parse(String(wire.expiresAt)) <= now;
    return {
      id: wire.id,
      templateId: wire.templateId,
      name: String(row.t_name),
      kind: row.t_kind,
      valueFen: num(row.t_value_fen),
      rate: num(row.t_rate),
      goodsId: num(row.t_goods_id),
      thresholdFen: num(row.t_threshold_fen),
      storeIds: t.storeIds && row.t_store_ids ? JSON.parse(String(row.t_store_ids)) : null,
      source: wire.source,
      // The expiry timer marks them in time; until it has, the list already says so.
      status: expired ? 'expired' : wire.status,
      issuedAt: wire.issuedAt,
      expiresAt: wire.expiresAt,
      usedAt: wire.usedAt,
      orderId: wire.orderId,
    };
  });
}

export const meCouponRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  const common = { tags: ['marketing'], security: bearerSecurity };

  app.get(
    '/api/me/coupons',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '我的优惠券',
        description: `最新发放的在前，最多 ${MAX_LISTED} 张。`,
        response: {
          200: successEnvelopeSchema({ type: 'array', items: couponSchema }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => ok(await couponsOf(db, signedIn(request).user.id, app.config.now())),
  );

  app.post<{ Body: { code?: unknown } }>(
    '/api/me/coupons/redeem',
    {
      preHandler: app.requireUser,
      schema: {
        ...common,
        summary: '兑换码兑换优惠券',
        description: '大小写、空格和连字符不影响兑换。同一兑换码只能兑换一次。',
        body: { type: 'object', properties: { code: { type: 'string', description: '如 K7QM-2XWP-9RTD' } } },
        response: {
          200: successEnvelopeSchema(couponSchema),
          ...authFailureResponses,
          404: { description: '兑换码不存在', ...failureEnvelopeSchema },
          409: {
            description: '兑换码已被使用、已作废，或优惠券已发完、已达每人限领',
            ...failureEnvelopeSchema,
          },
          422: { description: '不是兑换码的格式', ...failureEnvelopeSchema },
        },
      },
      // core's readExchangeCode checks the code: the schema only documents.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const userId = signedIn(request).user.id;
      const now = app.config.now();
      const redeemed = await db
        .transaction()
        .execute((trx) =>
          redeemCode(trx, { input: request.body?.code, userId, now, dialect: app.dbDialect }),
        );
      for (const resource of ['exchangeCodes', 'userCoupons', 'couponTemplates']) bumpVersion(db, resource);
      const [coupon] = await couponsOf(db, userId, now, redeemed.userCouponId);
      return ok(coupon, '兑换成功');
    },
  );
};
