/**
 * The money ledgers: a user's balance, a prepaid card's balance and a user's points. Every move
 * is one conditional UPDATE of the holder (`… + change WHERE … + change >= 0`) and one appended
 * ledger row carrying the balance after it, in the caller's transaction — the transaction of the
 * order, refund or adjustment that moved the money. So a balance never goes below zero, two
 * payments at once cannot both spend the same fen (the second UPDATE sees the first's result on
 * SQLite and PostgreSQL alike: PostgreSQL re-checks the WHERE on the row it waited for), and the
 * ledger's last `balanceAfterFen` always equals the holder's balance. Entries are never edited;
 * a correction is an entry of its own.
 */
import { getResource, type ResourceDef, formatMoney as yuan } from '@wanxiang/core';
import { type QueryCreator, sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { carryOut, type Planned } from '../../db/together.js';
import { conflict, notFound } from '../../http/envelope.js';
import { appendRow } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { columnOf, modelOf, toDbValues } from '../../resources/storage.js';

const users = getResource('users');
const balanceLedger = getResource('balanceLedger');
const prepaidCards = getResource('prepaidCards');
const pointsLedger = getResource('pointsLedger');

/** Where a ledger move runs: a transaction, its clock, and who to tell which lists changed. */
export interface LedgerTx {
  trx: AnyDb;
  now: number;
  /** Another resource the move wrote (the engine drops its cached list totals after commit). */
  touched?(resource: string): void;
}

export type BalanceKind = 'recharge' | 'pay' | 'refund' | 'adjust' | 'card';

export interface BalanceMove {
  userId: number;
  /** Positive credits, negative debits; never 0. */
  changeFen: number;
  kind: BalanceKind;
  /** What caused it: `orders`, `orderRefunds`, `cardProducts`, `adjust` … and its id. */
  refType?: string | null;
  refId?: number | null;
  note?: string | null;
}

export interface LedgerEntry {
  entryId: number;
  balanceAfterFen: number;
}

function checkChange(change: number): void {
  if (!Number.isSafeInteger(change) || change === 0)
    throw new Error(`ledger change must be a non-zero integer, got ${change}`);
}

/** The ledger row a move of a user's amount appends: its resource, and its fields but the amount after. */
interface UserLedgerEntry {
  def: ResourceDef;
  /** The field that carries the amount after the move (balanceAfterFen, balanceAfter). */
  afterField: string;
  values: Record<string, unknown>;
}

/**
 * Adds `change` to a user's `column` (balance_fen or points) unless it would go below zero, and
 * appends `entry` with the amount after it (telling `tx` both changed); settles to the entry and
 * the amount after, or refuses: 404 without the user, 409 with `short(held)` else. A plan
 * (db/together.ts), so a payment can send it with its other statements.
 *
 * On PostgreSQL the UPDATE is a CTE of the INSERT: one statement (a payment's round trips are the
 * load's cost), and the entry exists exactly when the amount moved. SQLite has no writing CTE:
 * nothing planned, two statements in-process when settled.
 */
function planUserAmount(
  tx: LedgerTx,
  userId: number,
  column: 'balance_fen' | 'points',
  change: number,
  short: (held: number) => string,
  entry: UserLedgerEntry,
): Planned<LedgerEntry> {
  // biome-ignore lint/suspicious/noExplicitAny: the transaction or the CTE's query creator
  const moved = (db: QueryCreator<any>) =>
    db
      .updateTable('users')
      .set({ [column]: sql`${sql.ref(column)} + ${change}`, updated_at: nextUpdatedAt(tx.now) })
      .where('id', '=', userId)
      .where(sql<boolean>`${sql.ref(column)} + ${change} >= 0`)
      .returning([column]);
  const entered = (entryId: number, after: number): LedgerEntry => {
    tx.touched?.(users.name);
    tx.touched?.(entry.def.name);
    return { entryId, balanceAfterFen: after };
  };
  const refuse = async (): Promise<never> => {
    const user = await tx.trx
      .selectFrom('users')
      .select([column])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw notFound('用户不存在');
    throw conflict(short(Number(user[column])));
  };
  if (dialectOf(tx.trx) === 'postgres') {
    const model = modelOf(entry.def);
    const columns = Object.entries({
      ...toDbValues(model, entry.values),
      created_at: tx.now,
      updated_at: tx.now,
    });
    const afterColumn = columnOf(model, entry.afterField) as string;
    const query = tx.trx
      .with('moved', moved)
      .insertInto(model.table)
      .columns([...columns.map(([name]) => name), afterColumn] as never)
      .expression((eb) =>
        eb
          .selectFrom('moved')
          .select([
            ...columns.map(([, value], i) => sql`${value}`.as(`v${i}`)),
            sql.ref(`moved.${column}`).as('after'),
          ]),
      )
      .returning(['id', sql.ref(afterColumn).as('after')]);
    return {
      queries: [query],
      async settle([rows]) {
        const row = rows?.[0] as { id: number | string; after: number | string } | undefined;
        return row ? entered(Number(row.id), Number(row.after)) : refuse();
      },
    };
  }
  return {
    queries: [],
    async settle() {
      const updated = await moved(tx.trx).executeTakeFirst();
      if (!updated) return refuse();
      const after = Number(updated[column]);
      const row = await appendRow(tx.trx, entry.def, { ...entry.values, [entry.afterField]: after }, tx.now);
      return entered(row.id, after);
    },
  };
}

/**
 * Moves a user's balance by `changeFen`; a debit larger than the balance is refused (409 余额不足).
 * As a plan, for a payment that sends it with its other statements; `moveBalance` carries it out alone.
 */
export function planBalance(tx: LedgerTx, move: BalanceMove): Planned<LedgerEntry> {
  checkChange(move.changeFen);
  return planUserAmount(
    tx,
    move.userId,
    'balance_fen',
    move.changeFen,
    (held) => `余额不足：当前余额 ${yuan(held)}，需要 ${yuan(-move.changeFen)}`,
    {
      def: balanceLedger,
      afterField: 'balanceAfterFen',
      values: {
        userId: move.userId,
        changeFen: move.changeFen,
        kind: move.kind,
        refType: move.refType ?? null,
        refId: move.refId ?? null,
        note: move.note ?? null,
      },
    },
  );
}

/** Moves a user's balance by `changeFen` (`planBalance`, carried out alone). */
export async function moveBalance(tx: LedgerTx, move: BalanceMove): Promise<LedgerEntry> {
  return carryOut(tx.trx, planBalance(tx, move));
}

export interface CardMove extends Omit<BalanceMove, 'userId'> {
  cardId: number;
  /** The card must belong to this user (paying for their order); absent for the card's own sale. */
  userId?: number | null;
}

/**
 * Moves a prepaid card's balance. Paying needs an active card of the paying user; a refund goes
 * back to the card whatever its state since (a frozen card keeps its money). The entry is in the
 * balance ledger with `cardId`, its `balanceAfterFen` being the card's.
 */
export async function moveCard(tx: LedgerTx, move: CardMove): Promise<LedgerEntry> {
  checkChange(move.changeFen);
  const cards = modelOf(prepaidCards).table;
  let qb = tx.trx
    .updateTable(cards)
    .set({ balance_fen: sql`balance_fen + ${move.changeFen}`, updated_at: nextUpdatedAt(tx.now) })
    .where('id', '=', move.cardId)
    .where(sql<boolean>`balance_fen + ${move.changeFen} >= 0`);
  if (move.changeFen < 0) qb = qb.where('status', '=', 'active');
  if (move.userId != null) qb = qb.where('user_id', '=', move.userId);
  const updated = await qb.returning(['balance_fen', 'user_id']).executeTakeFirst();
  if (!updated) {
    const card = await tx.trx
      .selectFrom(cards)
      .select(['balance_fen', 'status', 'user_id', 'card_no'])
      .where('id', '=', move.cardId)
      .executeTakeFirst();
    if (!card || (move.userId != null && Number(card.user_id) !== move.userId))
      throw conflict('储值卡不存在或不属于该顾客');
    if (move.changeFen < 0 && card.status !== 'active')
      throw conflict(`储值卡 ${card.card_no} 已冻结或已用完，不能支付`);
    throw conflict(
      `储值卡余额不足：当前余额 ${yuan(Number(card.balance_fen))}，需要 ${yuan(-move.changeFen)}`,
    );
  }
  const balanceAfterFen = Number(updated.balance_fen);
  // A card paid down to nothing is 已用完; money coming back makes it usable again.
  await tx.trx
    .updateTable(cards)
    .set({ status: balanceAfterFen === 0 ? 'usedUp' : 'active' })
    .where('id', '=', move.cardId)
    .where('status', '=', balanceAfterFen === 0 ? 'active' : 'usedUp')
    .execute();
  const entry = await appendRow(
    tx.trx,
    balanceLedger,
    {
      userId: updated.user_id == null ? null : Number(updated.user_id),
      cardId: move.cardId,
      changeFen: move.changeFen,
      balanceAfterFen,
      kind: move.kind,
      refType: move.refType ?? null,
      refId: move.refId ?? null,
      note: move.note ?? null,
    },
    tx.now,
  );
  tx.touched?.(prepaidCards.name);
  tx.touched?.(balanceLedger.name);
  return { entryId: entry.id, balanceAfterFen };
}

export type PointsReason = 'order' | 'redeem' | 'refund' | 'referral' | 'adjust' | 'expire';

export interface PointsMove {
  userId: number;
  change: number;
  reason: PointsReason;
  refId?: number | null;
  note?: string | null;
}

/** Moves a user's points; spending more than the user holds is refused (409 积分不足). */
export async function movePoints(tx: LedgerTx, move: PointsMove): Promise<LedgerEntry> {
  checkChange(move.change);
  return carryOut(
    tx.trx,
    planUserAmount(
      tx,
      move.userId,
      'points',
      move.change,
      (held) => `积分不足：当前 ${held} 积分，需要 ${-move.change} 积分`,
      {
        def: pointsLedger,
        afterField: 'balanceAfter',
        values: {
          userId: move.userId,
          change: move.change,
          reason: move.reason,
          refId: move.refId ?? null,
          note: move.note ?? null,
        },
      },
    ),
  );
}
