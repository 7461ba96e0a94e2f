import { describe, expect, it } from 'vitest';
import { decidePayment, orderCreateProblems } from '../../src/index';

const member = { userId: 7, payMethod: 'wechat', payableFen: 2350 };
const walkIn = { userId: null, payMethod: 'cash', payableFen: 990 };

describe('decidePayment', () => {
  it('writes the payable amount and the method the move names', () => {
    expect(decidePayment(member, { payMethod: 'balance' })).toEqual({
      ok: true,
      paidFen: 2350,
      payMethod: 'balance',
      cardId: null,
    });
  });

  it('falls back to the method chosen when the order was made', () => {
    expect(decidePayment(walkIn, {})).toMatchObject({ ok: true, paidFen: 990, payMethod: 'cash' });
  });

  it('keeps the card only for a card payment', () => {
    expect(decidePayment(member, { payMethod: 'card', cardId: 3 })).toMatchObject({ ok: true, cardId: 3 });
    expect(decidePayment(member, { payMethod: 'wechat', cardId: 3 })).toMatchObject({
      ok: true,
      cardId: null,
    });
  });

  it("refuses a member's money (balance, card) for an order without a member", () => {
    expect(decidePayment(walkIn, { payMethod: 'balance' })).toEqual({
      ok: false,
      field: 'payMethod',
      message: '余额支付须是会员顾客的订单',
    });
    expect(decidePayment(walkIn, { payMethod: 'card', cardId: 3 })).toEqual({
      ok: false,
      field: 'payMethod',
      message: '储值卡支付须是会员顾客的订单',
    });
  });

  it('refuses a card payment without a card', () => {
    expect(decidePayment(member, { payMethod: 'card' })).toEqual({
      ok: false,
      field: 'cardId',
      message: '储值卡支付须选择储值卡',
    });
  });

  it('refuses a method it does not know, named or stored', () => {
    expect(decidePayment(member, { payMethod: 'alipay' })).toMatchObject({ ok: false, field: 'payMethod' });
    expect(decidePayment({ ...walkIn, payMethod: null }, {})).toMatchObject({
      ok: false,
      field: 'payMethod',
    });
  });
});

describe('orderCreateProblems', () => {
  const draft = { fulfilment: 'dineIn', address: null, payMethod: 'cash', userId: null } as const;

  it('has none for a complete order', () => {
    expect(orderCreateProblems(draft)).toBeNull();
    expect(orderCreateProblems({ ...draft, fulfilment: 'delivery', address: '长安街 1 号' })).toBeNull();
  });

  it('asks a card payment for its member', () => {
    expect(orderCreateProblems({ ...draft, payMethod: 'card' })).toEqual({
      userId: '储值卡支付须选择会员顾客',
    });
  });

  it('asks a card payment for its member', () => {
    expect(orderCreateProblems({ ...draft, payMethod: 'card' })).toEqual({
      userId: '储值卡支付须选择会员顾客',
    });
  });

  it('asks a delivery for its address and a balance payment for its member, together', () => {
    expect(orderCreateProblems({ ...draft, fulfilment: 'delivery', payMethod: 'balance' })).toEqual({
      address: '外卖配送须填写收货地址',
      userId: '余额支付须选择会员顾客',
    });
  });
});
