/** Building blocks for action handlers (server/src/domain/<area>/): the row change of row-change.ts, refused as core says. */
import { actionConditions, type ResourceDef } from '@wanxiang/core';
import type { RawBuilder } from 'kysely';
import { illegalTransition } from './errors.js';
import type { ActionContext, AnyDb } from './extensions.js';
import { changeRow } from './row-change.js';
import { type DbRow, modelOf, toDbValues, toWireRow, type WireRow } from './storage.js';

export { nextUpdatedAt } from './row-change.js';

/**
 * `changeRowWhen` with the conditions core declares for the running action (its `when`), so the
 * states an action applies to are written once, in the registry.
 */
export async function changeRowAsDeclared(
  ctx: ActionContext,
  values: Record<string, unknown>,
  extra: Record<string, RawBuilder<unknown>> = {},
): Promise<void> {
  await changeRowWhen(ctx, actionConditions(ctx.action), values, extra);
}

/**
 * Changes the action's row — `values` in the wire shape, `extra` columns computed in SQL — only
 * while every field of `when` holds one of its values; otherwise (a state changed meanwhile, or
 * never allowed) the action answers 409 当前状态不能执行此操作.
 */
export async function changeRowWhen(
  ctx: ActionContext,
  when: Record<string, readonly unknown[]>,
  values: Record<string, unknown>,
  extra: Record<string, RawBuilder<unknown>> = {},
): Promise<void> {
  const changed = await changeRow(ctx.trx, modelOf(ctx.def), ctx.id, ctx.now, {
    values,
    columns: extra,
    when,
  });
  if (!changed) throw illegalTransition();
}

/**
 * Appends a row of `def` in the caller's transaction — a ledger entry, a history row, a refund
 * record — with the system columns stamped at `now`; answers it in the wire shape. Values are
 * the wire shape (camelCase); the caller validated them (they come from the domain, not a form).
 */
export async function appendRow(
  trx: AnyDb,
  def: ResourceDef,
  values: Record<string, unknown>,
  now: number,
): Promise<WireRow> {
  const row = (await appendRowsQuery(trx, def, [values], now)
    .returningAll()
    .executeTakeFirstOrThrow()) as DbRow;
  return toWireRow(modelOf(def), row);
}

/**
 * The insert of `appendRow` for several rows, unsent and answering nothing: for rows nobody reads
 * back, sent with the transaction's next statement (db/together.ts `writeWithNext`).
 */
export function appendRowsQuery(
  trx: AnyDb,
  def: ResourceDef,
  rows: readonly Record<string, unknown>[],
  now: number,
) {
  const model = modelOf(def);
  return trx
    .insertInto(model.table)
    .values(rows.map((values) => ({ ...toDbValues(model, values), created_at: now, updated_at: now })));
}
