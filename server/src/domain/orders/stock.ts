/**
 * Stock follows payment (DOMAIN.md): reserved when an order is paid, released when a paid order
 * is cancelled. A goods' `stock` and, for a line with a SKU, that SKU's stock in `specs` move
 * together; salesCount follows. Goods are changed in id order so two orders over the same goods
 * lock them in the same order (no deadlock on PostgreSQL).
 */
import { sql } from 'kysely';
import type { Planned } from '../../db/together.js';
import { conflict } from '../../http/envelope.js';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { modelOf } from '../../resources/storage.js';
import { def, lockedRow } from './rows.js';

interface Line {
  goodsId: number;
  name?: string;
  sku?: string | null;
  qty: number;
}

interface Sku {
  name: string;
  priceFen: number;
  stock: number;
}

/**
 * `sign` −1 takes the lines' stock (refused when short), +1 gives it back. A plan (db/together.ts)
 * a payment sends with its other statements: when no line names a SKU, one conditional UPDATE per
 * goods, in id order, the rows read only to say why one did not move; with a SKU, nothing planned
 * and `moveStock`'s read-and-write when settled.
 */
export function planStock(
  trx: AnyDb,
  dialect: string,
  lines: readonly Line[],
  sign: 1 | -1,
  now: number,
): Planned<void> {
  if (lines.some((l) => l.sku))
    return { queries: [], settle: () => moveStock(trx, dialect, lines, sign, now) };
  const groups = byGoods(lines);
  const table = modelOf(def('goods')).table;
  const queries = groups.map(([goodsId, group]) => moved(trx, goodsId, quantity(group), sign, now));
  return {
    queries,
    async settle(rows) {
      for (const [i, [goodsId, group]] of groups.entries()) {
        // Moved; or giving back to a goods deleted since: nothing to give back to.
        if ((rows[i]?.length ?? 0) > 0 || sign > 0) continue;
        // Not taken: the goods is gone or short. Read without a lock — the goods after this one may
        // be locked by this transaction already, and the refusal rolls everything back anyway.
        const good = await trx
          .selectFrom(table)
          .select(['name', 'stock'])
          .where('id', '=', goodsId)
          .executeTakeFirst();
        if (!good) throw conflict(`商品「${group[0]?.name ?? goodsId}」已不存在`);
        const qty = quantity(group);
        const stock = Number(good.stock ?? 0);
        throw conflict(
          stock < qty
            ? `库存不足：「${good.name}」仅剩 ${stock} 份`
            : `「${good.name}」的库存刚被其他订单改变，请重试`,
        );
      }
    },
  };
}

/**
 * The conditional UPDATE of a goods' stock by `sign` × `qty` (never below zero when taking),
 * returning its id when it moved.
 */
function moved(trx: AnyDb, goodsId: number, qty: number, sign: 1 | -1, now: number) {
  let qb = trx
    .updateTable(modelOf(def('goods')).table)
    .set({
      stock: sql`stock + ${sign * qty}`,
      sales_count: sql`case when sales_count + ${sign * qty} < 0 then 0 else sales_count + ${sign * qty} end`,
      updated_at: nextUpdatedAt(now),
    })
    .where('id', '=', goodsId);
  if (sign < 0) qb = qb.where('stock', '>=', qty);
  return qb.returning('id');
}

const quantity = (group: readonly Line[]) => group.reduce((s, l) => s + l.qty, 0);

/** The lines by goods, in goods id order (the order their rows are locked in). */
function byGoods(lines: readonly Line[]): [number, Line[]][] {
  const groups = new Map<number, Line[]>();
  for (const line of lines) groups.set(line.goodsId, [...(groups.get(line.goodsId) ?? []), line]);
  return [...groups.entries()].sort(([a], [b]) => a - b);
}

/** `sign` −1 takes the lines' stock (refused when short), +1 gives it back, one goods after another. */
export async function moveStock(
  trx: AnyDb,
  dialect: string,
  lines: readonly Line[],
  sign: 1 | -1,
  now: number,
): Promise<void> {
  const table = modelOf(def('goods')).table;
  for (const [goodsId, group] of byGoods(lines)) {
    const qty = quantity(group);
    // No SKU among the lines: the stock moves in one conditional UPDATE (the row is read only to
    // say why when it does not move); with SKUs, their stock in `specs` is read and written back.
    if (!group.some((l) => l.sku) && (await moved(trx, goodsId, qty, sign, now).executeTakeFirst())) continue;
    const good = await lockedRow(trx, 'goods', goodsId, dialect);
    if (!good) {
      if (sign > 0) continue; // a goods deleted since: nothing to give back to
      throw conflict(`商品「${group[0]?.name ?? goodsId}」已不存在`);
    }
    const stock = Number(good.stock ?? 0);
    if (sign < 0 && stock < qty) throw conflict(`库存不足：「${good.name}」仅剩 ${stock} 份`);
    let specs = good.specs as Sku[] | null;
    if (specs && group.some((l) => l.sku)) {
      specs = specs.map((s) => ({ ...s }));
      for (const line of group) {
        const spec = specs.find((s) => s.name === line.sku);
        if (!spec) continue;
        if (sign < 0 && spec.stock < line.qty)
          throw conflict(`库存不足：「${good.name}（${spec.name}）」仅剩 ${spec.stock} 份`);
        spec.stock += sign * line.qty;
      }
    }
    await trx
      .updateTable(table)
      .set({
        stock: stock + sign * qty,
        sales_count: Math.max(0, Number(good.salesCount ?? 0) + sign * qty),
        ...(specs ? { specs: JSON.stringify(specs) } : {}),
        updated_at: nextUpdatedAt(now),
      })
      .where('id', '=', goodsId)
      .execute();
  }
}
