/**
 * The table a definition needs, as data: columns with their storage types and the indexes the
 * list screens need. Migrations do not call this with the live registry (that would rewrite
 * history whenever a definition changes): `scripts/resource-migration.ts` diffs it against the
 * migrated schema and freezes the difference as a new numbered migration (see README.md).
 */
import { createHash } from 'node:crypto';
import { defaultSort, type ResourceDef } from '@wanxiang/core';
import { columnOf, modelOf, type StorageType } from './storage.js';

export interface ColumnSpec {
  name: string;
  type: StorageType;
  primaryKey?: true;
  notNull?: true;
  /** A literal default (booleans as 0/1). */
  default?: string | number;
}

export interface IndexSpec {
  name: string;
  /** `column` or `column desc`. */
  columns: string[];
  unique?: true;
  /** Partial over live rows (`deleted_at is null`) on soft-deleted resources. */
  live?: true;
}

export interface TableSpec {
  table: string;
  columns: ColumnSpec[];
  indexes: IndexSpec[];
}

/** SQL type names, the same on both dialects (and what introspection answers on both). */
export const SQL_TYPES: Record<StorageType, 'text' | 'bigint' | 'integer' | 'double precision'> = {
  text: 'text',
  bigint: 'bigint',
  integer: 'integer',
  double: 'double precision',
};

/** PostgreSQL cuts identifiers at 63 bytes; long names keep a hash of the whole so they stay unique. */
export function indexName(table: string, columns: readonly string[], suffix: 'idx' | 'key'): string {
  const plain = `${table}_${columns.map((c) => c.replace(/ desc$/, '')).join('_')}_${suffix}`;
  if (plain.length <= 63) return plain;
  const hash = createHash('sha256').update(plain).digest('hex').slice(0, 8);
  return `${plain.slice(0, 63 - 10)}_${hash}_${suffix}`.slice(0, 63);
}

/** Index columns for sort keys plus the id tie-breaker, in the direction of the last key. */
function sortColumns(keys: readonly { column: string; desc: boolean }[]): string[] {
  const out = keys.map((k) => ({ ...k }));
  if (!out.some((k) => k.column === 'id')) out.push({ column: 'id', desc: out.at(-1)?.desc ?? false });
  // An index read backwards serves the opposite order, so a uniform direction is stored ascending.
  const uniform = out.every((k) => k.desc === out[0]?.desc);
  return out.map((k) => (k.desc && !uniform ? `${k.column} desc` : k.column));
}

export function tableSpecOf(def: ResourceDef): TableSpec {
  const model = modelOf(def);
  const columns: ColumnSpec[] = [
    { name: 'id', type: 'integer', primaryKey: true },
    { name: 'created_at', type: 'bigint', notNull: true },
    { name: 'updated_at', type: 'bigint', notNull: true },
  ];
  if (model.softDelete) columns.push({ name: 'deleted_at', type: 'bigint' });
  for (const fs of model.stored) {
    const { field } = fs;
    const column: ColumnSpec = { name: fs.column as string, type: fs.type };
    let fallback = field.default;
    if (fallback === undefined && field.readOnly && (field.type === 'integer' || field.type === 'money'))
      fallback = 0;
    if (typeof fallback === 'boolean') column.default = fallback ? 1 : 0;
    else if (typeof fallback === 'string' || typeof fallback === 'number') column.default = fallback;
    if (field.required && !field.readOnly) column.notNull = true;
    columns.push(column);
  }

  const live = model.softDelete ? ({ live: true } as const) : {};
  const indexes: IndexSpec[] = [];
  const seen = new Set<string>();
  const add = (index: IndexSpec) => {
    const key = `${index.unique ? 'u' : ''}:${index.columns.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    indexes.push(index);
  };

  // The default order, so the first page of a list never sorts the table.
  const order = defaultSort(def)
    .map((k) => ({ column: columnOf(model, k.field), desc: k.desc }))
    .filter((k): k is { column: string; desc: boolean } => k.column !== null);
  const orderColumns = sortColumns(order);
  add({ name: indexName(model.table, orderColumns, 'idx'), columns: orderColumns, ...live });

  for (const fs of model.stored) {
    const column = fs.column as string;
    if (fs.field.unique) {
      add({ name: indexName(model.table, [column], 'key'), columns: [column], unique: true, ...live });
    }
    // A filter on a relation or state, newest first: (column, default order…, id) answers
    // `?status=paid` with the first 20 index entries, no sort.
    if (fs.field.filterable && (fs.field.type === 'relation' || fs.field.type === 'enum')) {
      // Its direction follows the order's: under an equality it does not matter, and a uniform
      // direction keeps the index plain ascending.
      const cols = sortColumns([{ column, desc: order[0]?.desc ?? false }, ...order]);
      add({ name: indexName(model.table, cols, 'idx'), columns: cols, ...live });
    }
  }
  for (const declared of def.indexes ?? []) {
    const keys = declared.map((spec) => {
      const desc = spec.startsWith('-');
      return { column: columnOf(model, desc ? spec.slice(1) : spec), desc };
    });
    if (keys.some((k) => k.column === null)) continue;
    const cols = sortColumns(keys as { column: string; desc: boolean }[]);
    add({ name: indexName(model.table, cols, 'idx'), columns: cols, ...live });
  }
  return { table: model.table, columns, indexes };
}
