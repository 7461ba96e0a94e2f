/**
 * What a counter order is made of on the wire (API.md `POST /api/admin/orders/price` and
 * `POST /api/admin/orders`): the cart as the client sends it, before the server resolves prices.
 * Validated with Chinese messages per field; the figures are always the server's.
 */
import { z } from 'zod';
import { FULFILMENTS } from './moves';
import { PAY_METHODS } from './pay-methods';

const id = (what: string) =>
  z
    .number({ error: `请选择${what}` })
    .int(`${what}无效`)
    .positive(`${what}无效`);

export const cartLineSchema = z.object({
  goodsId: id('商品'),
  sku: z.string().max(20, '规格名称最多20个字符').nullish(),
  qty: z.number({ error: '请填写数量' }).int('数量须为整数').min(1, '数量至少为 1').max(999, '数量最多 999'),
});

export const orderDraftSchema = z.object({
  storeId: id('门店'),
  userId: id('顾客').nullish(),
  items: z
    .array(cartLineSchema, { error: '请添加商品' })
    .min(1, '请添加商品')
    .max(100, '一单最多 100 行商品'),
  fulfilment: z.enum(FULFILMENTS, { error: '请选择履约方式（外卖配送、到店自取或堂食）' }),
  couponId: id('优惠券').nullish(),
  points: z
    .number({ error: '积分须为数字' })
    .int('积分须为整数')
    .min(0, '积分不能为负')
    .max(10_000_000, '积分过大')
    .nullish(),
});
export type OrderDraft = z.infer<typeof orderDraftSchema>;

export const orderCreateSchema = orderDraftSchema.extend({
  payMethod: z.enum(PAY_METHODS, { error: '请选择支付方式（余额、储值卡、现金或微信支付）' }),
  address: z.string().trim().max(200, '收货地址最多200个字符').nullish(),
  remark: z.string().trim().max(200, '备注最多200个字符').nullish(),
});
export type OrderCreate = z.infer<typeof orderCreateSchema>;

/** Field messages of a failed parse, by dotted path (`items.0.qty`), first message each. */
export function draftFieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The bodies as JSON Schema, for the server's OpenAPI document (the zod schemas stay the check). */
export const orderDraftJsonSchema = () =>
  z.toJSONSchema(orderDraftSchema, { io: 'input', unrepresentable: 'any' });
export const orderCreateJsonSchema = () =>
  z.toJSONSchema(orderCreateSchema, { io: 'input', unrepresentable: 'any' });
