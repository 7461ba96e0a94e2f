/**
 * Money held for users (core definitions/finance.ts): prepaid card products and the cards sold,
 * and the two ledgers. `Ledger` collects movements while the order simulation runs, then writes
 * them oldest first with their running balance (`balanceAfterFen`, `balanceAfter`), adding a
 * recharge before any payment the balance could not cover — so a balance never goes below zero
 * and each user's balance and points are the last entry of their chain.
 */
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import type { Customer } from './people.js';
import type { Rng } from './random.js';

export interface CardProduct {
  row: Row;
  faceValueFen: number;
  bonusFen: number;
}

export function seedCardProducts(ctx: DemoContext): CardProduct[] {
  const specs = [
    ['100 元储值卡', 10000, 10000, 0, 'onSale'],
    ['300 元储值卡（赠 30 元）', 30000, 30000, 3000, 'onSale'],
    ['500 元储值卡（赠 60 元）', 50000, 50000, 6000, 'onSale'],
    ['1000 元企业福利卡', 100000, 95000, 10000, 'onSale'],
    ['中秋礼品卡 200 元（已停售）', 20000, 18800, 0, 'offSale'],
  ] as const;
  const at = ctx.now - 300 * DAY;
  return specs.map(([name, faceValueFen, priceFen, bonusFen, status], i) => ({
    row: ctx.add('cardProducts', {
      name,
      faceValueFen,
      priceFen,
      bonusFen,
      status,
      createdAt: at + i * HOUR,
      updatedAt: at + i * HOUR,
    }),
    faceValueFen,
    bonusFen,
  }));
}

export interface Card {
  row: Row & { balanceFen: number; status: string };
  userId: number;
  soldAt: number;
}

/** Luhn check digit, as card numbers have. */
function luhn(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function seedPrepaidCards(
  ctx: DemoContext,
  products: readonly CardProduct[],
  customers: readonly Customer[],
): Card[] {
  const rng = ctx.random('cards');
  const onSale = products.slice(0, 4);
  const holders = rng.sample(customers, 60);
  const seen = new Set<string>();
  return holders.map((customer, i) => {
    const product = rng.weighted(onSale.map((p, k) => [p, [4, 5, 3, 1][k] as number] as const));
    let cardNo = '';
    while (!cardNo || seen.has(cardNo)) {
      const body = `8866${rng.digits(11)}`;
      cardNo = body + luhn(body);
    }
    seen.add(cardNo);
    const soldAt = Math.max(customer.since + DAY, ctx.now - rng.int(20, 120) * DAY) + i * MINUTE;
    const row = ctx.add('prepaidCards', {
      cardNo,
      productId: product.row.id,
      userId: customer.row.id,
      balanceFen: product.faceValueFen + product.bonusFen,
      status: 'active',
      soldAt,
      createdAt: soldAt,
      updatedAt: soldAt,
    });
    return { row, userId: customer.row.id, soldAt };
  });
}

interface Movement {
  userId: number;
  at: number;
  change: number;
  kind: string;
  refType: string | null;
  refId: number | null;
  note: string | null;
  /** Optional movements (a points redemption) are dropped when the balance cannot cover them. */
  optional?: boolean;
}

const RECHARGES = [5000, 10000, 20000, 30000, 50000];
const BONUS: Record<number, number> = { 20000: 1000, 30000: 3000, 50000: 6000 };

export class Ledger {
  private readonly moves: Movement[] = [];

  constructor(
    private readonly ctx: DemoContext,
    private readonly kind: 'balance' | 'points',
    private readonly rng: Rng,
  ) {}

  add(move: Movement): void {
    this.moves.push(move);
  }

  /**
   * Writes the entries in time order with running balances and sets each user's balance
   * (balanceFen or points) to where their chain ends.
   */
  flush(customers: readonly Customer[]): void {
    const byUser = new Map<number, Movement[]>();
    for (const m of this.moves) {
      const list = byUser.get(m.userId) ?? [];
      list.push(m);
      byUser.set(m.userId, list);
    }
    const entries: (Movement & { after: number })[] = [];
    for (const customer of customers) {
      const list = (byUser.get(customer.row.id) ?? []).sort((a, b) => a.at - b.at);
      let balance = 0;
      let last = customer.since;
      for (const m of list) {
        if (balance + m.change < 0) {
          if (m.optional || this.kind === 'points') continue;
          // Topped up by the customer just before paying.
          const needed = -(balance + m.change);
          const amount = RECHARGES.find((r) => r >= needed) ?? Math.ceil(needed / 10000) * 10000;
          const bonus = BONUS[amount] ?? 0;
          const at = Math.min(m.at - 1, Math.max(last + 1, m.at - this.rng.int(2, 30) * MINUTE));
          balance += amount + bonus;
          entries.push({
            userId: customer.row.id,
            at,
            change: amount + bonus,
            kind: 'recharge',
            refType: 'wechatPay',
            refId: null,
            note: bonus > 0 ? `微信充值 ¥${amount / 100}（赠 ¥${bonus / 100}）` : `微信充值 ¥${amount / 100}`,
            after: balance,
          });
        }
        balance += m.change;
        last = m.at;
        entries.push({ ...m, after: balance });
      }
      if (this.kind === 'balance') customer.row.balanceFen = balance;
      else customer.row.points = balance;
    }
    entries.sort((a, b) => a.at - b.at);
    for (const e of entries) {
      if (this.kind === 'balance') {
        this.ctx.add('balanceLedger', {
          userId: e.userId,
          changeFen: e.change,
          balanceAfterFen: e.after,
          kind: e.kind,
          refType: e.refType,
          refId: e.refId,
          note: e.note,
          createdAt: e.at,
          updatedAt: e.at,
        });
      } else {
        this.ctx.add('pointsLedger', {
          userId: e.userId,
          change: e.change,
          balanceAfter: e.after,
          reason: e.kind,
          refId: e.refId,
          note: e.note,
          createdAt: e.at,
          updatedAt: e.at,
        });
      }
    }
  }
}

/** Customers who recharged without spending it all yet, and a few adjustments by the operator. */
export function seedStandaloneMovements(
  ctx: DemoContext,
  customers: readonly Customer[],
  balance: Ledger,
  points: Ledger,
): void {
  const rng = ctx.random('ledger-extra');
  for (const customer of rng.sample(customers, 40)) {
    const amount = rng.pick(RECHARGES);
    const bonus = BONUS[amount] ?? 0;
    const at = Math.max(customer.since + HOUR, ctx.now - rng.int(1, 50) * DAY - rng.int(0, 600) * MINUTE);
    balance.add({
      userId: customer.row.id,
      at,
      change: amount + bonus,
      kind: 'recharge',
      refType: 'wechatPay',
      refId: null,
      note: bonus > 0 ? `微信充值 ¥${amount / 100}（赠 ¥${bonus / 100}）` : `微信充值 ¥${amount / 100}`,
    });
  }
  for (const customer of rng.sample(customers, 8)) {
    const at = Math.max(customer.since + HOUR, ctx.now - rng.int(1, 30) * DAY);
    balance.add({
      userId: customer.row.id,
      at,
      change: rng.pick([500, 1000, 1500]),
      kind: 'adjust',
      refType: 'complaint',
      refId: null,
      note: rng.pick(['客诉补偿：配送超时', '客诉补偿：餐品洒漏', '活动奖励补发']),
    });
    points.add({
      userId: customer.row.id,
      at: at + MINUTE,
      change: rng.pick([50, 100, 200]),
      kind: 'adjust',
      refType: null,
      refId: null,
      note: '客服补偿积分',
    });
  }
}
