/**
 * Display names of the rows a page refers to — `{storeId: {'12': '朝阳门店'}}` — so a list shows
 * names, not ids. One query per relation field for the ids on the page that are not already
 * known.
 *
 * Names are cached per related resource like list totals (counts.ts): a write to that resource
 * through the engine drops its names at once, and a name is never served more than
 * `COUNT_TTL_MS` (10 s) after it was read, so a rename by another process or outside the engine
 * shows within that time. A list of orders then reads its 20 orders and nothing else.
 */
import type { ResourceDef } from '@wanxiang/core';
import { type CompiledQuery, sql } from 'kysely';
import type { SqliteReader } from '../db/sqlite-reader.js';
import { COUNT_TTL_MS, versionOf } from './counts.js';
import type { AnyDb } from './extensions.js';
import { columnOf, fromDbValue, modelOf } from './storage.js';

export type Relations = Record<string, Record<string, string>>;

/** Runs a compiled SELECT and answers its rows (the engine's reader: see sqlite-reader.ts). */
export type ReadRows = (query: CompiledQuery) => Promise<readonly Record<string, unknown>[]>;

/** Where cached names live (the database object, as for totals) and the clock of their TTL. */
export interface NameCacheScope {
  db: object;
  now: () => number;
}

/** How names are read: the SQLite reader when there is one, else `read` (or Kysely), and cached or not. */
export interface NameOptions {
  reader?: SqliteReader | null;
  read?: ReadRows;
  cache?: NameCacheScope;
}

const CHUNK = 500;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Names kept per related resource; beyond this the cache starts again (users can be millions). */
const MAX_NAMES = 50_000;

interface NameEntry {
  version: number;
  at: number;
  /** null: no such row (it shows no name, as before it was cached). */
  names: Map<number, string | null>;
}

const caches = new WeakMap<object, Map<string, NameEntry>>();

function cacheOf(scope: NameCacheScope, resource: string): NameEntry {
  let byResource = caches.get(scope.db);
  if (!byResource) {
    byResource = new Map();
    caches.set(scope.db, byResource);
  }
  const version = versionOf(scope.db, resource);
  const now = scope.now();
  let entry = byResource.get(resource);
  if (!entry || entry.version !== version || now - entry.at >= COUNT_TTL_MS || entry.names.size > MAX_NAMES) {
    entry = { version, at: now, names: new Map() };
    byResource.set(resource, entry);
  }
  return entry;
}

function idsOf(rows: readonly Record<string, unknown>[], field: string): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    const value = row[field];
    if (typeof value === 'number') ids.add(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === 'number') ids.add(v);
  }
  return [...ids];
}

/** A `ReadRows` over Kysely (PostgreSQL, or a transaction). */
export const readWith =
  (db: AnyDb): ReadRows =>
  async (query) =>
    (await db.executeQuery(query)).rows as Record<string, unknown>[];

/** A related row's name from its stored display value (the id when that is empty). */
function storedName(target: ResourceDef): (rowId: unknown, rowName: unknown) => string {
  const field = modelOf(target).byName.get(target.displayField)?.field;
  return (rowId, rowName) => {
    const value = field ? fromDbValue(field, rowName) : rowName;
    return value === null || value === undefined ? String(rowId) : String(value);
  };
}

/** The names of `target`'s rows, read on a SQLite reader: the same names as `displayNames`. */
export interface NameReader {
  /** The name of one row; null: no such row. */
  one(id: number): string | null;
  /** Every row's id and name (two lists), or null when the table has more than `limit` rows. */
  all(limit: number): { ids: number[]; names: string[] } | null;
}

/**
 * Names of `target` on `reader`, for an export that streams its rows and meets each related id
 * as it goes: one id at a time (~4 µs each, most of it better-sqlite3's call), or the whole table
 * at once where it is small enough (100 000 users in ~60 ms).
 */
export function nameReader(target: ResourceDef, reader: SqliteReader): NameReader {
  const model = modelOf(target);
  const column = columnOf(model, target.displayField);
  if (!model.hasTable || !column || column === 'id') return { one: (id) => String(id), all: () => null };
  const nameOf = storedName(target);
  const select = `select ${quote('id')}, ${quote(column)} from ${quote(model.table)}`;
  const first = reader.firstRowOf(`${select} where ${quote('id')} = ?`);
  return {
    one(id) {
      const row = first([id]);
      return row ? nameOf(row[0], row[1]) : null;
    },
    all(limit) {
      const ids: number[] = [];
      const names: string[] = [];
      const count = reader.each(`${select} limit ${limit + 1}`, [], (row) => {
        ids.push(Number(row[0]));
        names.push(nameOf(row[0], row[1]));
      });
      return count > limit ? null : { ids, names };
    },
  };
}

/** Names of `ids` in `target` by its display field (the id itself when it has none stored). */
export async function displayNames(
  db: AnyDb,
  target: ResourceDef,
  ids: readonly number[],
  options: NameOptions = {},
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const model = modelOf(target);
  const column = columnOf(model, target.displayField);
  if (!model.hasTable || !column || column === 'id') {
    for (const id of ids) names.set(id, String(id));
    return names;
  }
  const cache = options.cache ? cacheOf(options.cache, target.name) : null;
  let missing: number[] = ids as number[];
  if (cache) {
    missing = [];
    for (const id of ids) {
      const name = cache.names.get(id);
      if (name === undefined) missing.push(id);
      else if (name !== null) names.set(id, name);
    }
    if (missing.length === 0) return names;
  }
  const nameOf = storedName(target);
  const remember = (rowId: unknown, rowName: unknown) => {
    const id = Number(rowId);
    const name = nameOf(rowId, rowName);
    names.set(id, name);
    cache?.names.set(id, name);
  };
  if (options.reader) {
    // One prepared statement per related table, whatever the number of ids (an `in (?, ?, …)`
    // list would be a new statement to prepare for every count).
    const { rows } = options.reader.arrays(
      `select ${quote('id')}, ${quote(column)} from ${quote(model.table)} where ${quote('id')} in (select value from json_each(?))`,
      [JSON.stringify(missing)],
    );
    for (const row of rows) remember(row[0], row[1]);
    if (cache) for (const id of missing) if (!cache.names.has(id)) cache.names.set(id, null);
    return names;
  }
  const read = options.read ?? readWith(db);
  for (let i = 0; i < missing.length; i += CHUNK) {
    const chunk = missing.slice(i, i + CHUNK);
    const rows = await read(
      db
        .selectFrom(model.table)
        .select([sql.ref('id').as('id'), sql.ref(column).as('name')])
        .where(sql.ref('id'), 'in', chunk)
        .compile(),
    );
    for (const row of rows) remember(row.id, row.name);
    if (cache) for (const id of chunk) if (!cache.names.has(id)) cache.names.set(id, null);
  }
  return names;
}

export async function relationsOf(
  db: AnyDb,
  def: ResourceDef,
  /** Rows with (at least) the relation fields' wire values. */
  rows: readonly Record<string, unknown>[],
  resolve: (name: string) => ResourceDef | undefined,
  options: NameOptions = {},
): Promise<Relations> {
  const out: Relations = {};
  for (const fs of modelOf(def).relations) {
    const field = fs.field;
    if (field.type !== 'relation' && field.type !== 'relationList') continue;
    const target = resolve(field.resource);
    const ids = idsOf(rows, fs.name);
    const names: Record<string, string> = {};
    if (target && ids.length > 0) {
      for (const [id, name] of await displayNames(db, target, ids, options)) names[String(id)] = name;
    }
    out[fs.name] = names;
  }
  return out;
}
