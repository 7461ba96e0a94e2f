import type { ResourceDef, Row } from '@wanxiang/core';

/** The row's name for people (confirmations, drawers, messages): its display field, else its ID. */
export function rowName(def: ResourceDef, row: Row): string {
  const value = row[def.displayField];
  return value === null || value === undefined || value === '' ? `#${row.id}` : String(value);
}
