/**
 * Reading and writing the marketing tables in the wire shape core's rules read (the engine's own
 * conversions, storage.ts), inside the caller's transaction.
 */
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { AnyDb } from '../../resources/extensions.js';
import { type DbRow, modelOf, toDbValues, toWireRow, type WireRow } from '../../resources/storage.js';

export const model = (resource: string) => modelOf(getResource(resource));

/**
 * Row `id` of `resource` as a wire row, or undefined. `lock` takes the row's write lock on
 * PostgreSQL (SELECT … FOR UPDATE) so concurrent writers of the row wait for this transaction;
 * SQLite runs one write transaction at a time, so it needs none.
 */
export async function readRow(
  trx: AnyDb,
  resource: string,
  id: number,
  options: { lock?: boolean; dialect?: DialectName } = {},
): Promise<WireRow | undefined> {
  const m = model(resource);
  let qb = trx.selectFrom(m.table).selectAll().where(sql.ref('id'), '=', id);
  if (m.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
  if (options.lock && options.dialect === 'postgres') qb = qb.forUpdate();
  const row = (await qb.executeTakeFirst()) as DbRow | undefined;
  return row ? toWireRow(m, row) : undefined;
}

/** Inserts wire-shaped rows of `resource` stamped `now`; answers their ids in order. */
export async function insertWireRows(
  trx: AnyDb,
  resource: string,
  rows: readonly Record<string, unknown>[],
  now: number,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const m = model(resource);
  const ids: number[] = [];
  // Both databases take at least 30 000 bound values a statement; these rows have ~12 columns.
  for (let start = 0; start < rows.length; start += 1000) {
    const values = rows
      .slice(start, start + 1000)
      .map((row) => ({ ...toDbValues(m, row), created_at: now, updated_at: now }));
    const inserted = await trx.insertInto(m.table).values(values).returning(sql.ref('id').as('id')).execute();
    for (const row of inserted) ids.push(Number((row as { id: unknown }).id));
  }
  return ids;
}
