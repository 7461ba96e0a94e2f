/**
 * How a stored row changes in place — the one UPDATE every update, soft delete, state
 * transition and handler action of the engine runs:
 *
 * - it stamps `updated_at` strictly later than the row's previous stamp (`nextUpdatedAt`), so
 *   two writes in one millisecond still give two versions (If-Match, the list row cache);
 * - it applies only while the row still holds what the caller read: a state among the allowed
 *   ones (`when`), the version it saw (`version`), not deleted. The condition is part of the
 *   UPDATE, so of two operators pressing the same button at once exactly one succeeds;
 * - it answers the row as written (RETURNING, on SQLite and PostgreSQL alike), or undefined when
 *   the condition did not hold — the caller says what that means (409, stale, illegal).
 *
 * The audit entry of the change is the engine's (`ResourceEngine.write`), in the same transaction.
 */
import { type RawBuilder, sql } from 'kysely';
import type { AnyDb } from './extensions.js';
import { columnOf, type DbRow, type ResourceModel, toDbValues } from './storage.js';

/** The new `updated_at`: now, or one past the previous one, so every change has its own stamp. */
export function nextUpdatedAt(now: number): RawBuilder<number> {
  return sql<number>`case when updated_at >= ${now} then updated_at + 1 else ${now} end`;
}

export interface RowChange {
  /** New values in the wire shape (converted to columns here); fields kept elsewhere are skipped. */
  values?: Record<string, unknown>;
  /** Column values computed in SQL (a stock added to, `deleted_at`), beside `values`. */
  columns?: Record<string, unknown>;
  /** Only while each of these fields holds one of its values (the states an action applies to). */
  when?: Record<string, readonly unknown[]>;
  /** Only while `updated_at` is still this stored value (the version the caller read). */
  version?: unknown;
}

/** The UPDATE of `changeRow`, returning the row, to be sent with other statements (db/together.ts). */
export function changeRowQuery(trx: AnyDb, model: ResourceModel, id: number, now: number, change: RowChange) {
  let qb = trx
    .updateTable(model.table)
    .set({ ...toDbValues(model, change.values ?? {}), ...change.columns, updated_at: nextUpdatedAt(now) })
    .where(sql.ref('id'), '=', id);
  for (const [field, allowed] of Object.entries(change.when ?? {})) {
    const column = columnOf(model, field);
    if (!column) throw new Error(`${model.def.name} has no column for ${field}`);
    qb = qb.where(sql.ref(column), 'in', [...allowed]);
  }
  if (change.version !== undefined) qb = qb.where(sql.ref('updated_at'), '=', change.version);
  if (model.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
  return qb.returningAll();
}

/** Changes row `id` of `model` as `change` says, stamped at `now`; undefined when its condition failed. */
export async function changeRow(
  trx: AnyDb,
  model: ResourceModel,
  id: number,
  now: number,
  change: RowChange,
): Promise<DbRow | undefined> {
  return (await changeRowQuery(trx, model, id, now, change).executeTakeFirst()) as DbRow | undefined;
}
