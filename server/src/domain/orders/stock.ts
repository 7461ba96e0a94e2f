/**
 * Stock follows payment (DOMAIN.md): reserved when an order is paid, released when a paid order
 * is cancelled. A goods' `stock` and, for a line with a SKU, that SKU's stock in `specs` move
 * together; salesCount follows. Goods are changed in id order so two orders over the same goods
 * lock them in the same order (no deadlock on PostgreSQL).
 */
import { sql } from 'kysely';
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

/** `sign` −1 takes the lines' stock (refused when short), +1 gives it back. */
export async function moveStock(
  trx: AnyDb,
  dialect: string,
  lines: readonly Line[],
  sign: 1 | -1,
  now: number,
): Promise<void> {
  const table = modelOf(def('goods')).table;
  const byGoods = new Map<number, Line[]>();
  for (const line of lines) byGoods.set(line.goodsId, [...(byGoods.get(line.goodsId) ?? []), line]);
  for (const goodsId of [...byGoods.keys()].sort((a, b) => a - b)) {
    const group = byGoods.get(goodsId) as Line[];
    const qty = group.reduce((s, l) => s + l.qty, 0);
    // No SKU among the lines: the stock moves in one conditional UPDATE (the row is read only to
    // say why when it does not move); with SKUs, their stock in `specs` is read and written back.
    if (!group.some((l) => l.sku)) {
      let qb = trx
        .updateTable(table)
        .set({
          stock: sql`stock + ${sign * qty}`,
          sales_count: sql`case when sales_count + ${sign * qty} < 0 then 0 else sales_count + ${sign * qty} end`,
          updated_at: nextUpdatedAt(now),
        })
        .where('id', '=', goodsId);
      if (sign < 0) qb = qb.where('stock', '>=', qty);
      const moved = await qb.returning('id').executeTakeFirst();
      if (moved) continue;
    }
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
