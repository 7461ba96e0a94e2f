/**
 * 调整余额 / 调整积分: an operator corrects a user's balance or points with a reason — an entry of
 * its own in the ledger (kind/reason `adjust`, the reason as its note), moved by the ledger's
 * one conditional UPDATE so it never goes below zero (409 余额不足 / 积分不足), in the audited
 * write whose entry names the operator. Entries are never edited: a wrong adjustment is undone
 * by another.
 */
import { invalidInput } from '../../http/envelope.js';
import type { CollectionActionContext } from '../../resources/extensions.js';
import { moveBalance, movePoints } from '../finance/ledger.js';
import { readRow } from './rows.js';

async function liveUser(ctx: CollectionActionContext): Promise<number> {
  const userId = Number(ctx.input.userId);
  if (!(await readRow(ctx.trx, 'users', userId))) throw invalidInput({ userId: '所选的用户不存在' });
  return userId;
}

export async function adjustBalance(ctx: CollectionActionContext) {
  const userId = await liveUser(ctx);
  const changeFen = Number(ctx.input.changeFen);
  const entry = await moveBalance(
    { trx: ctx.trx, now: ctx.now, touched: ctx.touched },
    { userId, changeFen, kind: 'adjust', refType: 'adjust', note: String(ctx.input.note) },
  );
  return { userId, changeFen, balanceAfterFen: entry.balanceAfterFen, entryId: entry.entryId };
}

export async function adjustPoints(ctx: CollectionActionContext) {
  const userId = await liveUser(ctx);
  const change = Number(ctx.input.change);
  const entry = await movePoints(
    { trx: ctx.trx, now: ctx.now, touched: ctx.touched },
    { userId, change, reason: 'adjust', note: String(ctx.input.note) },
  );
  return { userId, change, balanceAfter: entry.balanceAfterFen, entryId: entry.entryId };
}
