/** Reading registry rows in the wire shape inside a transaction (the orders area's reads). */
import { getResource, type ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';
import { type DbRow, modelOf, toWireRow, type WireRow } from '../../resources/storage.js';

export const def = (name: string): ResourceDef => getResource(name);

/** Live rows of `resource` with these ids, by id. */
export async function rowsById(
  trx: AnyDb,
  resource: string,
  ids: readonly number[],
): Promise<Map<number, WireRow>> {
  const qb = rowsByIdQuery(trx, resource, ids);
  return wireRowsById(resource, qb ? ((await qb.execute()) as DbRow[]) : []);
}

/** The read of `rowsById`, to be sent with others (db/together.ts); null for no ids. */
export function rowsByIdQuery(trx: AnyDb, resource: string, ids: readonly number[]) {
  const model = modelOf(def(resource));
  if (ids.length === 0) return null;
  let qb = trx
    .selectFrom(model.table)
    .selectAll()
    .where(sql.ref('id'), 'in', [...new Set(ids)]);
  if (model.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
  return qb;
}

export function wireRowsById(resource: string, rows: readonly DbRow[]): Map<number, WireRow> {
  const model = modelOf(def(resource));
  return new Map(rows.map((r) => [Number(r.id), toWireRow(model, r)]));
}

export async function rowById(trx: AnyDb, resource: string, id: number): Promise<WireRow | undefined> {
  return (await rowsById(trx, resource, [id])).get(id);
}

/**
 * Locks row `id` for the rest of the transaction on PostgreSQL (SELECT … FOR UPDATE), so a
 * read-modify-write of its JSON (a SKU's stock) cannot interleave; SQLite runs one write
 * transaction at a time already.
 */
export async function lockedRow(
  trx: AnyDb,
  resource: string,
  id: number,
  dialect: string,
): Promise<WireRow | undefined> {
  const model = modelOf(def(resource));
  let qb = trx.selectFrom(model.table).selectAll().where(sql.ref('id'), '=', id);
  if (dialect === 'postgres') qb = qb.forUpdate();
  const row = (await qb.executeTakeFirst()) as DbRow | undefined;
  return row ? toWireRow(model, row) : undefined;
}
