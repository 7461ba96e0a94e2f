/**
 * Display names of the rows a page refers to — `{storeId: {'12': '朝阳门店'}}` — so a list shows
 * names, not ids. One query per relation field for all ids on the page.
 */
import type { ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from './extensions.js';
import { columnOf, fromDbValue, modelOf, type WireRow } from './storage.js';

export type Relations = Record<string, Record<string, string>>;

const CHUNK = 500;

function idsOf(rows: readonly WireRow[], field: string): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    const value = row[field];
    if (typeof value === 'number') ids.add(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === 'number') ids.add(v);
  }
  return [...ids];
}

/** Names of `ids` in `target` by its display field (the id itself when it has none stored). */
export async function displayNames(
  db: AnyDb,
  target: ResourceDef,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const model = modelOf(target);
  const column = columnOf(model, target.displayField);
  if (!model.hasTable || !column || column === 'id') {
    for (const id of ids) names.set(id, String(id));
    return names;
  }
  const field = model.byName.get(target.displayField)?.field;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const rows = (await db
      .selectFrom(model.table)
      .select([sql.ref('id').as('id'), sql.ref(column).as('name')])
      .where(sql.ref('id'), 'in', chunk)
      .execute()) as { id: number; name: unknown }[];
    for (const row of rows) {
      const value = field ? fromDbValue(field, row.name) : row.name;
      names.set(Number(row.id), value === null || value === undefined ? String(row.id) : String(value));
    }
  }
  return names;
}

export async function relationsOf(
  db: AnyDb,
  def: ResourceDef,
  rows: readonly WireRow[],
  resolve: (name: string) => ResourceDef | undefined,
): Promise<Relations> {
  const out: Relations = {};
  for (const fs of modelOf(def).relations) {
    const field = fs.field;
    if (field.type !== 'relation' && field.type !== 'relationList') continue;
    const target = resolve(field.resource);
    const ids = idsOf(rows, fs.name);
    const names: Record<string, string> = {};
    if (target && ids.length > 0) {
      for (const [id, name] of await displayNames(db, target, ids)) names[String(id)] = name;
    }
    out[fs.name] = names;
  }
  return out;
}
