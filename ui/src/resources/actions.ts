/** Which of a definition's actions a row offers: a transition only from the states it leaves. */
import type { ActionDef, ResourceDef, Row } from '@wanxiang/core';

export function actionApplies(action: ActionDef, row: Row): boolean {
  if (action.effect.kind !== 'transition') return true;
  const { field, from, when } = action.effect;
  if (!from.includes(String(row[field]))) return false;
  return Object.entries(when ?? {}).every(([other, allowed]) => allowed.includes(String(row[other])));
}

export function rowActions(def: ResourceDef, row: Row): ActionDef[] {
  return (def.actions ?? []).filter((a) => actionApplies(a, row));
}

/** The row's name for people: its display field, else its ID. */
export function rowName(def: ResourceDef, row: Row): string {
  const value = row[def.displayField];
  return value === null || value === undefined || value === '' ? `#${row.id}` : String(value);
}
