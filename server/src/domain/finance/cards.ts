/**
 * Prepaid cards (储值卡, DOMAIN.md OMS/card): selling one to a user makes the card with the
 * product's face value plus its bonus on it; topping one up adds the amount. The money taken at
 * the counter is cash or WeChat (outside), or the user's balance (debited here). Each writes the
 * ledger in the action's transaction; the card's balance moves only through it (ledger.ts).
 */
import { randomInt } from 'node:crypto';
import { formatMoney, getResource } from '@wanxiang/core';
import { conflict } from '../../http/envelope.js';
import { appendRow } from '../../resources/actions.js';
import type { ActionContext } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { moveBalance, moveCard } from './ledger.js';

const prepaidCards = getResource('prepaidCards');

/** 16 digits starting 8 (a card number a cashier can read out), from the OS's randomness. */
function cardNumber(): string {
  let digits = '8';
  for (let i = 0; i < 15; i++) digits += String(randomInt(10));
  return digits;
}

export async function sellCard(ctx: ActionContext): Promise<WireRow> {
  const product = ctx.row;
  const userId = Number(ctx.input.userId);
  const payMethod = String(ctx.input.payMethod);
  const price = Number(product.priceFen);
  const value = Number(product.faceValueFen) + Number(product.bonusFen ?? 0);
  const user = await ctx.trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw conflict('所选的用户不存在');
  const card = await appendRow(
    ctx.trx,
    prepaidCards,
    { cardNo: cardNumber(), productId: product.id, userId, balanceFen: 0, status: 'active', soldAt: ctx.now },
    ctx.now,
  );
  ctx.touched('prepaidCards');
  if (payMethod === 'balance')
    await moveBalance(ctx, {
      userId,
      changeFen: -price,
      kind: 'card',
      refType: 'prepaidCards',
      refId: card.id,
      note: `购买储值卡 ${card.cardNo}（${product.name}）`,
    });
  const entry = await moveCard(ctx, {
    cardId: card.id,
    changeFen: value,
    kind: 'card',
    refType: 'cardProducts',
    refId: product.id,
    note: `售卡 ${product.name}：面值 ${formatMoney(Number(product.faceValueFen))}${Number(product.bonusFen) ? `，赠送 ${formatMoney(Number(product.bonusFen))}` : ''}，收款 ${formatMoney(price)}`,
  });
  return { ...card, balanceFen: entry.balanceAfterFen };
}

export async function rechargeCard(ctx: ActionContext): Promise<undefined> {
  const amount = Number(ctx.input.amountFen);
  const payMethod = String(ctx.input.payMethod);
  const card = ctx.row;
  if (payMethod === 'balance') {
    if (card.userId == null) throw conflict('这张卡没有持卡用户，不能用余额充值');
    await moveBalance(ctx, {
      userId: Number(card.userId),
      changeFen: -amount,
      kind: 'card',
      refType: 'prepaidCards',
      refId: card.id,
      note: `为储值卡 ${card.cardNo} 充值`,
    });
  }
  await moveCard(ctx, {
    cardId: card.id,
    changeFen: amount,
    kind: 'recharge',
    refType: 'prepaidCards',
    refId: card.id,
    note: `储值卡充值 ${formatMoney(amount)}`,
  });
  return undefined;
}
