/**
 * A parsed list query (core's `parseListQuery`) as SQL: filters, keyword search, order, keyset
 * cursors. Only columns of the registry reach SQL, and every value is a bound parameter — except a
 * filter's value from a closed set (`closedSetLiteral`).
 */
import type { FieldDef, Filter, ListQuery, ResourceDef } from '@wanxiang/core';
import {
  type CompiledQuery,
  type Expression,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { DialectName } from '../db/connect.js';
import { inlineLimit } from '../db/limit.js';
import { fitsPlanLiteral, planLiteral } from '../db/plan-literal.js';
import { invalidInput } from '../http/envelope.js';
import type { AnyDb } from './extensions.js';
import { ident, PAGE_KEYS, WIRE_JSON, wireJsonSql } from './sqlite-json.js';
import { columnOf, type DbRow, fieldDefOf, modelOf, type ResourceModel, toDbValue } from './storage.js';

// biome-ignore lint/suspicious/noExplicitAny: rows of registry tables are untyped records
type Select = SelectQueryBuilder<any, any, any>;

const LIST_TYPES = new Set(['enumList', 'stringList', 'relationList']);
const MAX_IN = 1000;

/** `%`, `_` and the escape character itself are matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export interface OrderKey {
  column: string;
  desc: boolean;
  /** Known never to be NULL (system columns, required fields). */
  notNull: boolean;
}

/** The list order as columns, always ending with the id so every row has one place. */
export function orderKeys(model: ResourceModel, query: Pick<ListQuery, 'sort'>): OrderKey[] {
  const keys: OrderKey[] = [];
  for (const key of query.sort) {
    const column = columnOf(model, key.field);
    if (!column || keys.some((k) => k.column === column)) continue;
    const fs = model.byName.get(key.field);
    const notNull = !fs || (!!fs.field.required && !fs.field.readOnly);
    keys.push({ column, desc: key.desc, notNull });
  }
  if (!keys.some((k) => k.column === 'id')) {
    keys.push({ column: 'id', desc: keys.at(-1)?.desc ?? true, notNull: true });
  }
  return keys;
}

/**
 * Refuses what core's parser accepts but this storage cannot serve: filters and sorts on fields
 * kept outside the table (users.roles).
 */
export function checkQueryAgainstStorage(model: ResourceModel, query: ListQuery): void {
  const fields: Record<string, string> = {};
  for (const f of query.filters) {
    if (!columnOf(model, f.field)) fields[f.field] = `不支持的筛选条件 ${f.field}`;
    else if (f.op === 'in' && Array.isArray(f.value) && f.value.length > MAX_IN)
      fields[`${f.field}_in`] = `最多可筛选 ${MAX_IN} 个值`;
  }
  for (const s of query.sort) if (!columnOf(model, s.field)) fields.sort = `不支持按 ${s.field} 排序`;
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
}

function listContains(column: string, type: string, value: unknown): Expression<SqlBool> {
  const ref = sql.ref(column);
  if (type === 'relationList') {
    // "[1,12,3]" → ",1,12,3," so an id matches only whole.
    return sql<SqlBool>`(replace(replace(${ref}, '[', ','), ']', ',') like ${likePattern(`,${Number(value)},`)} escape '!')`;
  }
  return sql<SqlBool>`(${ref} like ${likePattern(JSON.stringify(value))} escape '!')`;
}

/**
 * A filter's value from a closed set — an enum's option, a boolean — written into the SQL so the
 * plan PostgreSQL keeps is made for it (db/plan-literal.ts: a list by a rare status got the plan
 * of an average one). Only an enum's own options (core's parser refuses the rest; checked again
 * here) and 0/1; an option planLiteral would not take stays bound.
 */
function closedSetLiteral(field: FieldDef, value: unknown): RawBuilder<unknown> | undefined {
  if (field.type === 'boolean' && value != null) return planLiteral(toDbValue(field, value) as number);
  if (field.type === 'enum' && fitsPlanLiteral(value) && field.options.some((o) => o.value === value))
    return planLiteral(value);
  return undefined;
}

function filterExpression(model: ResourceModel, filter: Filter): Expression<SqlBool> | null {
  const column = columnOf(model, filter.field) as string;
  const field = fieldDefOf(model, filter.field);
  if (!field) return null;
  const ref = sql.ref(column);
  if (LIST_TYPES.has(field.type)) {
    const values = filter.op === 'in' ? (filter.value as unknown[]) : [filter.value];
    if (values.length === 0) return null;
    const parts = values.map((v) => listContains(column, field.type, v));
    return parts.length === 1
      ? (parts[0] as Expression<SqlBool>)
      : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
  }
  const db = (v: unknown) => closedSetLiteral(field, v) ?? toDbValue(field, v);
  switch (filter.op) {
    case 'eq':
      return sql<SqlBool>`${ref} = ${db(filter.value)}`;
    case 'gte':
      return sql<SqlBool>`${ref} >= ${db(filter.value)}`;
    case 'lte':
      return sql<SqlBool>`${ref} <= ${db(filter.value)}`;
    case 'in': {
      // Sorted and once each (parsed values are strings, numbers or booleans), so a closed set's
      // literals make one text per set of values.
      const values = [...new Set(filter.value as unknown[])].sort().map(db);
      if (values.length === 0) return null;
      return sql<SqlBool>`${ref} in (${sql.join(values)})`;
    }
  }
}

/** Live rows matching the filters and the keyword. */
export function applyFilters(
  qb: Select,
  model: ResourceModel,
  query: Pick<ListQuery, 'filters' | 'q'>,
  dialect: DialectName,
): Select {
  let out = qb;
  if (model.softDelete) out = out.where(sql.ref('deleted_at'), 'is', null);
  for (const filter of query.filters) {
    const expression = filterExpression(model, filter);
    if (expression) out = out.where(expression);
  }
  if (query.q && model.searchColumns.length > 0) {
    const pattern = likePattern(query.q);
    const op = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
    const parts = model.searchColumns.map((column) => {
      const fs = model.stored.find((f) => f.column === column);
      const ref =
        fs && fs.type !== 'text' && dialect === 'postgres'
          ? sql`cast(${sql.ref(column)} as text)`
          : sql.ref(column);
      return sql<SqlBool>`${ref} ${op} ${pattern} escape '!'`;
    });
    out = out.where(sql<SqlBool>`(${sql.join(parts, sql` or `)})`);
  }
  return out;
}

export function applyOrder(qb: Select, keys: readonly OrderKey[]): Select {
  let out = qb;
  for (const key of keys) out = out.orderBy(sql.ref(key.column), key.desc ? 'desc' : 'asc');
  return out;
}

// ---- keyset cursors ----------------------------------------------------------------------------

/** The cursor names its order, so a cursor of another order is refused rather than misread. */
function signature(keys: readonly OrderKey[]): string {
  return keys.map((k) => (k.desc ? `-${k.column}` : k.column)).join(',');
}

/** The row's values of the order's columns: where a page after it starts. */
export function keyValues(keys: readonly OrderKey[], row: DbRow): unknown[] {
  return keys.map((k) => {
    const v = row[k.column];
    return typeof v === 'bigint' ? Number(v) : (v ?? null);
  });
}

export function encodeCursor(keys: readonly OrderKey[], row: DbRow): string {
  return Buffer.from(JSON.stringify({ o: signature(keys), v: keyValues(keys, row) })).toString('base64url');
}

const badCursor = () => invalidInput({ cursor: '游标无效，请从第一页重新开始' });

export function decodeCursor(keys: readonly OrderKey[], cursor: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const p = parsed as { o?: unknown; v?: unknown };
  if (
    !p ||
    typeof p !== 'object' ||
    p.o !== signature(keys) ||
    !Array.isArray(p.v) ||
    p.v.length !== keys.length
  )
    throw badCursor();
  for (const v of p.v) if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw badCursor();
  return p.v as unknown[];
}

/**
 * Rows strictly after `values` in the order of `keys`. NULLs sort first ascending on SQLite and
 * last on PostgreSQL, and the predicate follows each database's own order so its indexes serve.
 */
export function afterCursor(
  keys: readonly OrderKey[],
  values: readonly unknown[],
  dialect: DialectName,
): Expression<SqlBool> {
  const uniform = keys.every((k) => k.desc === keys[0]?.desc);
  if (uniform && keys.every((k) => k.notNull) && values.every((v) => v !== null)) {
    // A row-value comparison: one index range on both databases.
    const op = sql.raw(keys[0]?.desc ? '<' : '>');
    return sql<SqlBool>`(${sql.join(keys.map((k) => sql.ref(k.column)))}) ${op} (${sql.join(values as unknown[])})`;
  }
  const disjuncts: Expression<SqlBool>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as OrderKey;
    const value = values[i];
    const ref = sql.ref(key.column);
    const nullsFirst = dialect === 'sqlite' ? !key.desc : key.desc;
    const cmp = sql.raw(key.desc ? '<' : '>');
    let after: Expression<SqlBool> | null;
    if (value === null) after = nullsFirst && !key.notNull ? sql<SqlBool>`${ref} is not null` : null;
    else if (nullsFirst || key.notNull) after = sql<SqlBool>`${ref} ${cmp} ${value}`;
    else after = sql<SqlBool>`(${ref} ${cmp} ${value} or ${ref} is null)`;
    if (after) {
      const equal = keys
        .slice(0, i)
        .map((k, j) =>
          values[j] === null
            ? sql<SqlBool>`${sql.ref(k.column)} is null`
            : sql<SqlBool>`${sql.ref(k.column)} = ${values[j]}`,
        );
      disjuncts.push(equal.length > 0 ? sql<SqlBool>`(${sql.join([...equal, after], sql` and `)})` : after);
    }
  }
  return disjuncts.length > 0 ? sql<SqlBool>`(${sql.join(disjuncts, sql` or `)})` : sql<SqlBool>`1 = 0`;
}

/**
 * Whether rows can be bounded on both sides in this order by row-value comparisons (one index
 * range): every key in the same direction and never null — the default newest-first order is.
 */
export function boundedOrder(keys: readonly OrderKey[]): boolean {
  return keys.length > 0 && keys.every((k) => k.desc === keys[0]?.desc && k.notNull);
}

/** Rows at or before `values` in the order of `keys` (a `boundedOrder`). */
export function untilCursor(keys: readonly OrderKey[], values: readonly unknown[]): Expression<SqlBool> {
  if (!boundedOrder(keys) || values.some((v) => v === null)) throw new Error('untilCursor: unbounded order');
  const op = sql.raw(keys[0]?.desc ? '>=' : '<=');
  return sql<SqlBool>`(${sql.join(keys.map((k) => sql.ref(k.column)))}) ${op} (${sql.join(values as unknown[])})`;
}

// ---- reading ---------------------------------------------------------------------------------

export interface PageRequest {
  query: ListQuery;
  /** Keyset position (decoded cursor values); replaces the offset when present. */
  after: unknown[] | null;
  /** Rows up to and including this position only (see `boundedOrder`); only with `after`. */
  until?: unknown[] | null;
  limit: number;
  offset: number;
  /**
   * `stored` (the default): every column. `wireJson` (SQLite): each row's wire JSON written by
   * SQLite (sqlite-json.ts) as `WIRE_JSON`, plus the columns of the order and of the relations —
   * what the list needs besides the JSON (the next cursor, the related names). `versions`: the
   * same without the JSON, each row's `id` and `updated_at` instead, for the rows whose JSON is
   * kept (row-cache.ts) — on SQLite as one row (`wholePage`), on PostgreSQL as plain rows.
   */
  columns?: 'stored' | 'wireJson' | 'versions';
}

/**
 * From this offset on, a page is read as a "deferred join": the ids of the page come from the
 * index alone (the skipped rows are never read from the table), then only those rows are read.
 * At 1 000 000 orders, page 5 000 of `status=paid` takes 2.3 ms instead of 4.2 ms on SQLite.
 */
export const DEFERRED_JOIN_OFFSET = 500;

/**
 * The columns besides the JSON that a `wireJson` page reports per row, in this order: the order's
 * (where the next page starts), then the relations' (whose names the answer carries).
 */
export function pageKeyColumns(model: ResourceModel, keys: readonly OrderKey[]): string[] {
  return [...new Set([...keys.map((k) => k.column), ...model.relations.map((fs) => fs.column as string)])];
}

/** A `versions` page's columns per row before its `pageKeyColumns`: the row's id and version. */
export const ROW_ID = '__row_id';
export const ROW_VERSION = '__row_version';

/** The columns a page selects (see `PageRequest.columns`). */
function pageColumns(qb: Select, model: ResourceModel, keys: readonly OrderKey[], page: PageRequest): Select {
  if (page.columns !== 'wireJson' && page.columns !== 'versions') return qb.selectAll();
  const keyColumns = pageKeyColumns(model, keys).map((column) => sql.ref(column).as(column));
  if (page.columns === 'versions')
    return qb.select([sql.ref('id').as(ROW_ID), sql.ref('updated_at').as(ROW_VERSION), ...keyColumns]);
  return qb.select([sql.raw(wireJsonSql(model)).as(WIRE_JSON), ...keyColumns]);
}

/**
 * A `wireJson` page as one row: `WIRE_JSON` the JSON array of its rows as UTF-8 bytes (a blob:
 * no JavaScript string is made of it, and it goes to the socket as it is), `PAGE_KEYS` a JSON
 * array of each row's `pageKeyColumns`. Both aggregates are ordered as the page is. A `versions`
 * page is `PAGE_KEYS` alone, each row's array starting with its `ROW_ID` and `ROW_VERSION`.
 */
function wholePage(
  db: AnyDb,
  rows: Select,
  keys: readonly OrderKey[],
  model: ResourceModel,
  versions: boolean,
): Select {
  const order = keys.map((k) => `${ident(k.column)} ${k.desc ? 'desc' : 'asc'}`).join(', ');
  const columns = [...(versions ? [ROW_ID, ROW_VERSION] : []), ...pageKeyColumns(model, keys)];
  const perRow = sql
    .raw(`json_group_array(json_array(${columns.map(ident).join(', ')}) order by ${order})`)
    .as(PAGE_KEYS);
  if (versions) return db.selectFrom(rows.as('page')).select([perRow]);
  return db
    .selectFrom(rows.as('page'))
    .select([
      sql
        .raw(
          `cast('[' || coalesce(group_concat(${ident(WIRE_JSON)}, ',' order by ${order}), '') || ']' as blob)`,
        )
        .as(WIRE_JSON),
      perRow,
    ]);
}

/** The page's rows (or, for `wireJson`, the whole page as one row). */
export function selectPage(db: AnyDb, dialect: DialectName, def: ResourceDef, page: PageRequest): Select {
  const model = modelOf(def);
  const keys = orderKeys(model, page.query);
  const rows = selectPageRows(db, dialect, model, keys, page);
  if (page.columns === 'wireJson' || (page.columns === 'versions' && dialect === 'sqlite'))
    return wholePage(db, rows, keys, model, page.columns === 'versions');
  // PostgreSQL's `versions` page: the same columns as plain rows (engine.ts readCachedPagePg).
  return rows;
}

function selectPageRows(
  db: AnyDb,
  dialect: DialectName,
  model: ResourceModel,
  keys: readonly OrderKey[],
  page: PageRequest,
): Select {
  if (!page.after && page.offset >= DEFERRED_JOIN_OFFSET) {
    const ids = applyOrder(
      applyFilters(db.selectFrom(model.table).select(sql.ref('id').as('id')), model, page.query, dialect),
      keys,
    )
      .limit(inlineLimit(page.limit))
      .offset(page.offset);
    return applyOrder(
      pageColumns(db.selectFrom(model.table), model, keys, page).where(sql.ref('id'), 'in', ids),
      keys,
    );
  }
  let qb: Select = applyFilters(
    pageColumns(db.selectFrom(model.table), model, keys, page),
    model,
    page.query,
    dialect,
  );
  if (page.after) qb = qb.where(afterCursor(keys, page.after, dialect));
  if (page.until) qb = qb.where(untilCursor(keys, page.until));
  qb = applyOrder(qb, keys).limit(inlineLimit(page.limit));
  if (!page.after && page.offset > 0) qb = qb.offset(page.offset);
  return qb;
}

/** Compiled pages remembered per resource (distinct filters, orders, pages and cursors). */
const MAX_COMPILED = 500;
const compiledPages = new WeakMap<object, WeakMap<ResourceDef, Map<string, CompiledQuery>>>();

/**
 * `selectPage(…).compile()`, remembered: building and compiling the query with Kysely costs
 * about as much as SQLite reading the page (≈30 µs here), and a back office asks for the same
 * pages over and over. The key is everything the SQL and its parameters depend on, so a hit is
 * exactly what compiling again would give.
 */
export function compilePage(
  db: AnyDb,
  dialect: DialectName,
  def: ResourceDef,
  page: PageRequest,
): CompiledQuery {
  let byDef = compiledPages.get(db);
  if (!byDef) {
    byDef = new WeakMap();
    compiledPages.set(db, byDef);
  }
  let cache = byDef.get(def);
  if (!cache) {
    cache = new Map();
    byDef.set(def, cache);
  }
  const { query } = page;
  const key = JSON.stringify([
    dialect,
    query.filters,
    query.q,
    query.sort,
    page.after,
    page.limit,
    page.offset,
    page.columns,
  ]);
  let compiled = cache.get(key);
  if (compiled) return compiled;
  compiled = selectPage(db, dialect, def, page).compile();
  if (cache.size >= MAX_COMPILED) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, compiled);
  return compiled;
}

export async function countRows(
  db: AnyDb,
  dialect: DialectName,
  def: ResourceDef,
  query: Pick<ListQuery, 'filters' | 'q'>,
  read?: (query: CompiledQuery) => Promise<readonly Record<string, unknown>[]>,
): Promise<number> {
  const model = modelOf(def);
  const qb = applyFilters(
    db.selectFrom(model.table).select(sql<number>`count(*)`.as('n')),
    model,
    query,
    dialect,
  );
  const row = (read ? (await read(qb.compile()))[0] : await qb.executeTakeFirst()) as
    | { n: number | string }
    | undefined;
  return Number(row?.n ?? 0);
}

/**
 * The largest id a row can have: ids are `integer` identities on PostgreSQL (db/migrations
 * `idColumn`). A larger one was compared there and refused (numeric_value_out_of_range, 422)
 * where SQLite, whose rowids are wider, found no row (404); the same id now answers the same on
 * both.
 */
export const MAX_ROW_ID = 2_147_483_647;

/** Parses the id of a path: a positive integer no row is too large for, else the row cannot exist. */
export function parseId(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ROW_ID ? id : null;
}

export const notFoundMessage = (def: ResourceDef) => `${def.title}不存在或已删除`;
export const unsupportedMessage = '此资源不支持该操作';
