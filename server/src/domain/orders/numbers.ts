/**
 * Order and refund numbers: `yyyyMMddHHmmss` in China time + the row's id, zero-padded to 8 —
 * readable, sortable by time, and unique by construction (two orders in the same second have
 * different ids), so concurrent orders never collide the way random suffixes can.
 */
import { randomUUID } from 'node:crypto';
import { chinaCompactStamp, type ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { appendRow } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import {
  columnOf,
  type DbRow,
  modelOf,
  toDbValues,
  toWireRow,
  type WireRow,
} from '../../resources/storage.js';

/** The id's last 8 digits, as the number ends. */
const ID_DIGITS = 8;

/**
 * Appends a row whose `field` is its number, made from its id.
 *
 * On PostgreSQL the id is taken from the table's sequence in the insert itself and the number
 * written with it: one statement, where insert-then-update was two (an order's creation is the
 * load's most frequent write, and each statement is a round trip). SQLite has no sequence to take
 * from; there both statements run in-process, so the number is written after the insert.
 */
export async function appendNumbered(
  trx: AnyDb,
  def: ResourceDef,
  field: string,
  prefix: string,
  values: Record<string, unknown>,
  now: number,
): Promise<WireRow> {
  const model = modelOf(def);
  const stamp = `${prefix}${chinaCompactStamp(now)}`;
  const column = columnOf(model, field) as string;
  if (dialectOf(trx) === 'postgres') {
    const id = sql`(select id from next_id)`;
    const row = await trx
      .with('next_id', (db) =>
        db.selectNoFrom(sql`nextval(pg_get_serial_sequence(${model.table}, 'id'))`.as('id')),
      )
      .insertInto(model.table)
      .values({
        ...toDbValues(model, values),
        id,
        [column]: sql`${stamp} || lpad((${id} % ${10 ** ID_DIGITS})::text, ${ID_DIGITS}, '0')`,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWireRow(model, row as DbRow);
  }
  const row = await appendRow(trx, def, { ...values, [field]: `pending-${randomUUID()}` }, now);
  const number = `${stamp}${String(row.id % 10 ** ID_DIGITS).padStart(ID_DIGITS, '0')}`;
  await trx
    .updateTable(model.table)
    .set({ [column]: number })
    .where(sql.ref('id'), '=', row.id)
    .execute();
  return { ...row, [field]: number };
}
