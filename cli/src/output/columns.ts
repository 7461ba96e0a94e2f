/**
 * A resource's fields as output columns, and one value as people read it (core's fieldText: enum
 * labels, money as ¥, times as `YYYY-MM-DD HH:mm` in China time, related rows by name from the
 * list answer's `relations`).
 */
import {
  type FieldDef,
  fieldText,
  type Relations,
  type ResourceDef,
  readableFields,
  SYSTEM_FIELD_DEFS,
} from '@wanxiang/core';

export interface Column {
  name: string;
  field: FieldDef;
}

const system = (name: 'id' | 'createdAt' | 'updatedAt'): Column => ({
  name,
  field: SYSTEM_FIELD_DEFS[name] as FieldDef,
});

/** Types that do not fit a table cell: shown by `get`, left out of `list`. */
const LONG_TYPES = new Set<FieldDef['type']>(['json', 'text', 'markdown']);

/** The list's columns, as the admin table shows them: id, the listed fields, creation time. */
export function listColumns(def: ResourceDef): Column[] {
  const fields = readableFields(def)
    .filter(([, field]) => !field.hideInList && !LONG_TYPES.has(field.type))
    .map(([name, field]) => ({ name, field }));
  return [system('id'), ...fields, system('createdAt')];
}

/** Every field a row has, for `get` and for CSV. */
export function allColumns(def: ResourceDef): Column[] {
  const fields = readableFields(def).map(([name, field]) => ({ name, field }));
  return [system('id'), ...fields, system('createdAt'), system('updatedAt')];
}

/**
 * One value for people: core's fieldText, the rule the admin screen and the CSV export follow
 * too. `multiline` keeps line breaks of long text and pretty-prints JSON (the `get` view).
 */
export function displayValue(
  column: Column,
  value: unknown,
  relations: Relations = {},
  multiline = false,
): string {
  return fieldText(column.field, value, { relations: relations[column.name], multiline });
}

/** Right-aligned in a table: amounts and counts line up on their last digit. */
export function isNumeric(column: Column): boolean {
  return ['integer', 'number', 'money'].includes(column.field.type);
}

/** Text a table may cut with "…"; amounts, times, yes/no and enum labels are never cut. */
export function isFreeText(column: Column): boolean {
  return !['integer', 'number', 'money', 'datetime', 'date', 'boolean', 'enum'].includes(column.field.type);
}
