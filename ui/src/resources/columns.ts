/**
 * The columns a resource list can show, from the registry: ID, the readable fields, 创建时间 and
 * 更新时间. Fields marked hideInList (and 更新时间) start hidden; the user's column choice (a
 * preference) overrides. Each type has a least width, so a table with many columns scrolls
 * instead of squeezing Chinese text into one character per line.
 */
import {
  type FieldDef,
  isSortable,
  type ResourceDef,
  readableFields,
  SYSTEM_FIELD_DEFS,
} from '@wanxiang/core';

export interface ColumnDef {
  key: string;
  title: string;
  field: FieldDef;
  width: number;
  sortable: boolean;
  align?: 'right' | 'center';
  defaultVisible: boolean;
}

/** Roughly the width of a Chinese label in the table's 14 px font. */
export const textWidth = (text: string) =>
  [...text].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 14 : 8), 0);

/** The least width of a column of this type; the content may widen it (the table is max-content). */
function typeWidth(field: FieldDef): number {
  switch (field.type) {
    case 'enum':
      return Math.max(...field.options.map((o) => textWidth(o.label) + 32), 72);
    case 'money':
      return 88;
    case 'datetime':
      return 140;
    case 'date':
      return 104;
    case 'boolean':
      return 72;
    case 'image':
      return 64;
    case 'integer':
    case 'number':
      return 72;
    case 'string':
      return field.format === 'url' ? 160 : 96;
    case 'relation':
      return 96;
    case 'stringList':
    case 'enumList':
    case 'relationList':
      return 120;
    default:
      return 160;
  }
}

function column(def: ResourceDef, key: string, field: FieldDef, defaultVisible: boolean): ColumnDef {
  const sortable = isSortable(def, key);
  const title = field.label;
  const width = Math.max(typeWidth(field), textWidth(title) + (sortable ? 44 : 32));
  const align =
    field.type === 'money' || field.type === 'integer' || field.type === 'number'
      ? 'right'
      : field.type === 'boolean' || field.type === 'image'
        ? 'center'
        : undefined;
  return { key, title, field, width, sortable, ...(align ? { align } : {}), defaultVisible };
}

/**
 * The registry's field order, but the row's state (`status`) right after its name: what an
 * operator scans first stays in view when a wide table scrolls sideways.
 */
function listOrder(def: ResourceDef): [string, FieldDef][] {
  const fields = readableFields(def);
  const status = fields.find(([name, field]) => name === 'status' && field.type === 'enum');
  const anchor = fields.findIndex(([name]) => name === def.displayField);
  if (!status || anchor < 0) return fields;
  const rest = fields.filter((f) => f !== status);
  const at = rest.findIndex(([name]) => name === def.displayField) + 1;
  return [...rest.slice(0, at), status, ...rest.slice(at)];
}

export function columnsOf(def: ResourceDef): ColumnDef[] {
  const system = SYSTEM_FIELD_DEFS as Record<string, FieldDef>;
  return [
    { ...column(def, 'id', system.id as FieldDef, true), width: 80, align: undefined },
    ...listOrder(def).map(([key, field]) => column(def, key, field, !field.hideInList)),
    column(def, 'createdAt', system.createdAt as FieldDef, true),
    column(def, 'updatedAt', system.updatedAt as FieldDef, false),
  ];
}

/** The columns to show: the user's choice (in its order, unknown names skipped) or the defaults. */
export function visibleColumns(
  all: readonly ColumnDef[],
  chosen: readonly string[] | undefined,
): ColumnDef[] {
  if (!chosen) return all.filter((c) => c.defaultVisible);
  const byKey = new Map(all.map((c) => [c.key, c]));
  const picked = chosen.map((k) => byKey.get(k)).filter((c): c is ColumnDef => !!c);
  return picked.length > 0 ? picked : all.filter((c) => c.defaultVisible);
}
