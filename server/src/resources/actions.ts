/** Building blocks for action handlers (server/src/domain/<area>/resource.ts). */
import { actionConditions } from '@wanxiang/core';
import { type RawBuilder, sql } from 'kysely';
import { illegalTransition } from './engine.js';
import type { ActionContext } from './extensions.js';
import { columnOf, modelOf, toDbValues } from './storage.js';

/** The new `updated_at`: now, or one past the previous one, so every change has its own stamp. */
export function nextUpdatedAt(now: number): RawBuilder<number> {
  return sql<number>`case when updated_at >= ${now} then updated_at + 1 else ${now} end`;
}

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
 * Changes the action's row — `values` in the wire shape — only while every field of `when` holds
 * one of its values; otherwise (a state changed meanwhile, or never allowed) the action answers
 * 409 当前状态不能执行此操作. One conditional UPDATE, so concurrent actions cannot both pass.
 */
export async function changeRowWhen(
  ctx: ActionContext,
  when: Record<string, readonly unknown[]>,
  values: Record<string, unknown>,
  extra: Record<string, RawBuilder<unknown>> = {},
): Promise<void> {
  const model = modelOf(ctx.def);
  let qb = ctx.trx
    .updateTable(model.table)
    .set({ ...toDbValues(model, values), ...extra, updated_at: nextUpdatedAt(ctx.now) })
    .where(sql.ref('id'), '=', ctx.id);
  for (const [field, allowed] of Object.entries(when)) {
    const column = columnOf(model, field);
    if (!column) throw new Error(`${ctx.def.name} has no column for ${field}`);
    qb = qb.where(sql.ref(column), 'in', [...allowed]);
  }
  if (model.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
  const result = await qb.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw illegalTransition();
}
