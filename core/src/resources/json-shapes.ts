/**
 * The shapes of the registry's JSON fields, as zod schemas, by name. A definition names its
 * field's shape (`f.json('规格', { shape: 'goodsSpecs' })`) and schema.ts looks it up when it
 * validates. They live here, apart from the definitions, so that zod is not part of what the
 * admin lists load: a list reads the definitions for its columns and filters, and only the forms
 * (a lazy chunk), the server and the CLI validate — and import this module through schema.ts.
 */
import { z } from 'zod';
import { keywordRuleSchema } from '../community/chat-bot';
import { auditDetailSchema } from '../merchant/audit-detail';

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const sku = z.object({
  name: z.string().min(1, '规格名称不能为空').max(20, '规格名称最多20个字符'),
  priceFen: z.number().int('规格价格须为整数（分）').min(0, '规格价格不能为负'),
  stock: z.number().int('规格库存须为整数').min(0, '规格库存不能为负'),
});

const orderItem = z.object({
  goodsId: z.number().int().positive('商品须为有效的商品'),
  name: z.string().max(50),
  sku: z.string().max(20).nullable().optional(),
  qty: z.number().int('数量须为整数').min(1, '数量至少为 1').max(999, '数量最多 999'),
  unitPriceFen: z.number().int('单价须为整数（分）').min(0, '单价不能为负'),
  // What pricing gave the line (core/src/pricing): every discount's share, the money it cost
  // and the points it was paid with; what a line refund returns is computed from them.
  discountFen: z.number().int().min(0).optional(),
  payableFen: z.number().int().min(0).optional(),
  pointsFen: z.number().int().min(0).optional(),
  /** Units refunded so far by line refunds. */
  refundedQty: z.number().int().min(0).optional(),
});

const discountTier = z
  .object({
    thresholdFen: z.number().int('门槛须为整数（分）').min(1, '门槛须大于 0'),
    reduceFen: z.number().int('减免须为整数（分）').min(1, '减免须大于 0'),
  })
  .refine((t) => t.reduceFen < t.thresholdFen, '减免金额须小于门槛金额');

// The chat-bot rule's own module owns a rule's shape (match type included).
const keywordRule = keywordRuleSchema;

const cacheRule = z.object({
  path: z
    .string()
    .trim()
    .min(1, '缓存路径不能为空')
    .max(200, '缓存路径最多200个字符')
    .regex(/^(\/|\*\.)\S*$/, '缓存路径须以 / 或 *. 开头，如 /static/ 或 *.jpg'),
  ttlS: z
    .number()
    .int('缓存时间须为整数（秒）')
    .min(0, '缓存时间不能为负')
    .max(31_536_000, '缓存时间最多一年'),
});

const certificateChainEntry = z.object({
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  fingerprint256: z.string(),
});

export const JSON_SHAPES = {
  // people
  auditDiff: z.record(z.string(), z.unknown()).nullable(),
  // oms
  goodsSpecs: z.array(sku).max(20, '最多20个规格'),
  orderItems: z.array(orderItem),
  refundItems: z.array(
    z.object({
      /** The order line's index (absent on refunds written before lines were numbered). */
      index: z.number().int().min(0).optional(),
      goodsId: z.number().int().positive(),
      /** The line's goods name and SKU as the order has them (so the record reads alone). */
      name: z.string().max(50).optional(),
      sku: z.string().max(20).nullable().optional(),
      qty: z.number().int().min(1),
      amountFen: z.number().int().min(0),
      points: z.number().int().min(0).optional(),
    }),
  ),
  /** A refund by lines: which line of the order (from 0) and how many of its units. */
  refundLines: z
    .array(
      z.object({
        index: z.number({ error: '请选择商品行' }).int('行号须为整数').min(0, '行号须为整数'),
        qty: z.number({ error: '请填写退款件数' }).int('件数须为整数').min(1, '件数至少为 1'),
      }),
    )
    .min(1, '请选择要退的商品')
    .max(100, '一次最多退 100 行'),
  // marketing
  discountTiers: z
    .array(discountTier)
    .min(1, '至少一档满减')
    .max(10, '最多10档满减')
    .refine(
      (list) => list.every((t, i) => i === 0 || t.thresholdFen > (list[i - 1] as typeof t).thresholdFen),
      '各档门槛须从低到高排列且不重复',
    ),
  moduleConfig: z.record(z.string(), z.unknown(), '模块配置须为 JSON 对象'),
  // community
  keywordRules: z.array(keywordRule).min(1, '至少一条关键词规则').max(200, '最多200条关键词规则'),
  // monitoring
  httpHeaders: z
    .record(z.string(), z.string('请求头的值须为文本').max(2000, '请求头的值最多2000个字符'), {
      error: '请求头须为 JSON 对象，如 {"Authorization": "Bearer …"}',
    })
    .refine((headers) => Object.keys(headers).every((name) => HEADER_NAME.test(name)), '请求头名称无效'),
  notifyDays: z
    .array(z.number().int('提醒天数须为整数').min(1, '提醒天数至少为 1').max(365, '提醒天数最多 365'))
    .max(10, '最多10个提醒'),
  certificateChain: z.array(certificateChainEntry),
  // cloud
  cacheRules: z.array(cacheRule).max(50, '最多50条缓存规则'),
  // merchant
  auditDetail: auditDetailSchema,
} satisfies Record<string, z.ZodType>;
