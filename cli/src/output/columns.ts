/**
 * A resource's fields as output columns, and one value as people read it: enum labels, money as
 * ¥ (core's formatMoney), times as `YYYY-MM-DD HH:mm` (core's formatDateTime), related rows by
 * name from the list answer's `relations`.
 */
import {
  type FieldDef,
  formatDateTime,
  formatMoney,
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

export const EMPTY = '-';

/** One value for people. `multiline` keeps line breaks of long text (the `get` view). */
export function displayValue(
  column: Column,
  value: unknown,
  relations: Relations = {},
  multiline = false,
): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  const { field } = column;
  const related = (id: unknown) => relations[column.name]?.[String(id)] ?? `#${String(id)}`;
  switch (field.type) {
    case 'enum':
      return field.options.find((o) => o.value === value)?.label ?? String(value);
    case 'enumList':
      return listOf(value, (v) => field.options.find((o) => o.value === v)?.label ?? String(v));
    case 'money':
      return typeof value === 'number' ? formatMoney(value) : String(value);
    case 'datetime':
      return formatDateTime(value as string);
    case 'boolean':
      return value ? '是' : '否';
    case 'relation':
      return related(value);
    case 'relationList':
      return listOf(value, related);
    case 'stringList':
      return listOf(value, String);
    case 'json':
      return multiline ? JSON.stringify(value, null, 2) : JSON.stringify(value);
    default: {
      const text = String(value);
      return multiline ? text : text.replace(/\s*[\r\n]+\s*/g, ' ');
    }
  }
}

function listOf(value: unknown, show: (item: unknown) => string): string {
  if (!Array.isArray(value)) return String(value);
  return value.length === 0 ? EMPTY : value.map(show).join('、');
}

/** Right-aligned in a table: amounts and counts line up on their last digit. */
export function isNumeric(column: Column): boolean {
  return ['integer', 'number', 'money'].includes(column.field.type);
}

/** Text a table may cut with "…"; amounts, times, yes/no and enum labels are never cut. */
export function isFreeText(column: Column): boolean {
  return !['integer', 'number', 'money', 'datetime', 'date', 'boolean', 'enum'].includes(column.field.type);
}
