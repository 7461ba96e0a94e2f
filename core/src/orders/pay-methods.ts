/**
 * The ways an order is paid, with their names: data only (no schema), so the resource definitions
 * and screens that name them load nothing else. The rules that use them are in payment.ts.
 */
export const PAY_METHODS = ['balance', 'card', 'cash', 'wechat'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

export const PAY_METHOD_LABELS: Record<PayMethod, string> = {
  balance: '余额',
  card: '储值卡',
  cash: '现金',
  wechat: '微信支付',
};

/** The counter's choices, in the order a cashier reaches for them (cash and WeChat first). */
export const COUNTER_PAY_METHODS: readonly PayMethod[] = ['cash', 'wechat', 'balance', 'card'];

/** A member's own money (their balance, their prepaid cards): an order without a customer has none. */
export const MEMBER_PAY_METHODS: readonly PayMethod[] = ['balance', 'card'];
