/**
 * Order and refund numbers: `yyyyMMddHHmmss` in China time + the row's id, zero-padded to 8 —
 * readable, sortable by time, and unique by construction (two orders in the same second have
 * different ids), so concurrent orders never collide the way random suffixes can.
 */
import { randomUUID } from 'node:crypto';
import { chinaCompactStamp, type ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import { appendRow } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { columnOf, modelOf, type WireRow } from '../../resources/storage.js';

/** Appends a row whose `field` is its number: written after the insert, from its id. */
export async function appendNumbered(
  trx: AnyDb,
  def: ResourceDef,
  field: string,
  prefix: string,
  values: Record<string, unknown>,
  now: number,
): Promise<WireRow> {
  const row = await appendRow(trx, def, { ...values, [field]: `pending-${randomUUID()}` }, now);
  const number = `${prefix}${chinaCompactStamp(now)}${String(row.id % 100_000_000).padStart(8, '0')}`;
  const model = modelOf(def);
  await trx
    .updateTable(model.table)
    .set({ [columnOf(model, field) as string]: number })
    .where(sql.ref('id'), '=', row.id)
    .execute();
  return { ...row, [field]: number };
}
