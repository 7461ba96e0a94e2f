/**
 * Which of a resource's actions apply to a row — one rule for the UI's row buttons, the CLI and
 * the server's refusal (409): a transition from the states it leaves (and its `when`), a handler
 * where its `when` holds.
 */
import type { Row } from './client';
import { type ActionDef, type ResourceDef, rowActions } from './define';

/** The field conditions of an action: `{status: ['paid']}`, transitions' `from` included. */
export function actionConditions(action: ActionDef): Record<string, readonly string[]> {
  const effect = action.effect;
  if (effect.kind === 'transition') return { [effect.field]: effect.from, ...effect.when };
  return { ...effect.when };
}

export function actionApplies(action: ActionDef, row: Pick<Row, string>): boolean {
  return Object.entries(actionConditions(action)).every(([field, allowed]) =>
    allowed.includes(String(row[field])),
  );
}

/** The row actions (not the collection ones) that apply to `row`. */
export function applicableActions(def: ResourceDef, row: Pick<Row, string>): ActionDef[] {
  return rowActions(def).filter((action) => actionApplies(action, row));
}
