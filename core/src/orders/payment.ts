/**
 * How an order is paid: the rules of the counter's create form and of the pay move, beside the
 * machine that decides the move itself (decide.ts). Pure; the server writes what they answer with
 * the status change and refuses with their field messages (422); a form may ask them first.
 */
import type { OrderCreate } from './draft';
import { MEMBER_PAY_METHODS, PAY_METHOD_LABELS, PAY_METHODS, type PayMethod } from './pay-methods';

/** Cross-field rules of a counter order that the schema's per-field checks cannot say. */
export function orderCreateProblems(
  draft: Pick<OrderCreate, 'fulfilment' | 'address' | 'payMethod' | 'userId'>,
) {
  const problems: Record<string, string> = {};
  if (draft.fulfilment === 'delivery' && !draft.address) problems.address = '外卖配送须填写收货地址';
  if (MEMBER_PAY_METHODS.includes(draft.payMethod) && !draft.userId)
    problems.userId = `${PAY_METHOD_LABELS[draft.payMethod]}支付须选择会员顾客`;
  return Object.keys(problems).length > 0 ? problems : null;
}

/** What the pay move reads of the order. */
export interface PayableOrder {
  userId: number | null;
  /** The method chosen when the order was made, used when the move names none. */
  payMethod: string | null;
  payableFen: number;
}

export type PaymentDecision =
  | { ok: true; paidFen: number; payMethod: PayMethod; cardId: number | null }
  | { ok: false; field: 'payMethod' | 'cardId'; message: string };

/** What paying `order` with `input` writes on it (the amount, the method, the card), or why not. */
export function decidePayment(
  order: PayableOrder,
  input: { payMethod?: string | null; cardId?: number | null },
): PaymentDecision {
  const method = input.payMethod ?? order.payMethod;
  if (!PAY_METHODS.includes(method as PayMethod))
    return { ok: false, field: 'payMethod', message: '请选择支付方式（余额、储值卡、现金或微信支付）' };
  if (MEMBER_PAY_METHODS.includes(method as PayMethod) && order.userId == null)
    return {
      ok: false,
      field: 'payMethod',
      message: `${PAY_METHOD_LABELS[method as PayMethod]}支付须是会员顾客的订单`,
    };
  if (method === 'card' && input.cardId == null)
    return { ok: false, field: 'cardId', message: '储值卡支付须选择储值卡' };
  return {
    ok: true,
    paidFen: order.payableFen,
    payMethod: method as PayMethod,
    cardId: method === 'card' ? (input.cardId ?? null) : null,
  };
}
