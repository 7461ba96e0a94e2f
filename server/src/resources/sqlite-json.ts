/**
 * On SQLite, a list page's rows are written as JSON by SQLite itself: one `json_object(…)` per
 * row, in the wire shape of API.md, which the answer then carries as text.
 *
 * Why (1 000 000 orders, perf and `--cpu-prof` of the server under 32 connections): a page of
 * 20 orders cost ~150 µs between SQLite and the socket, and most of it was not SQLite. It went
 * into better-sqlite3 making 700 JavaScript values through V8's API, building 20 wire objects
 * and `JSON.stringify`ing them again, then garbage collecting all of it. `json_object` writes the
 * same JSON in C from the stored values, and the page becomes 20 strings.
 *
 * The same rules: each field's SQL follows its wire kind (storage.ts `WIRE_CONVERTERS`) for the
 * values the engine stores — whole epoch milliseconds, 0/1, numbers, JSON text, text. Any other
 * value (a real in a time column, text in a number column, a blob) is handed to the JavaScript
 * converter of its kind through the `wx_wire` SQL function, so the answer is always what
 * `toWireRow` gives; test/resources/sqlite-json.test.ts compares the two for every resource.
 */
import type Database from 'better-sqlite3';
import { MASK, type ResourceModel, WIRE_CONVERTERS, type WireKind, wireKind } from './storage.js';

/** The column holding a row's JSON (and a whole page's, see query.ts `wholePage`). */
export const WIRE_JSON = '__wire_json';
/** The column holding a page's key and relation values per row. */
export const PAGE_KEYS = '__page_keys';

/** A quoted SQL identifier. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** 0001-01-01 and 9999-12-31 23:59:59.999 UTC: the years SQLite's datetime writes as `Date` does. */
const MIN_ISO_MS = -62_135_596_800_000;
const MAX_ISO_MS = 253_402_300_799_999;

/** What the JavaScript converter of `kind` makes of `value`, as JSON text (`wx_wire`). */
const otherValue = (kind: WireKind, value: unknown) => JSON.stringify(WIRE_CONVERTERS[kind](value) ?? null);

/** Registers `wx_wire(kind, value)`, which the SQL of `wireJsonSql` calls for unusual values. */
export function registerWireFunctions(db: Database.Database): void {
  db.function('wx_wire', { deterministic: true }, (kind, value) => otherValue(kind as WireKind, value));
}

/** The SQL of one stored value's wire value, `c` being the quoted column. */
function valueSql(kind: WireKind, c: string): string {
  const other = `json(wx_wire('${kind}', ${c}))`;
  switch (kind) {
    case 'iso':
    case 'stamp':
      // datetime(…, 'subsec') writes `YYYY-MM-DD HH:MM:SS.SSS`, twice as fast as strftime with %f.
      return `CASE WHEN typeof(${c}) = 'integer' AND ${c} BETWEEN ${MIN_ISO_MS} AND ${MAX_ISO_MS} THEN replace(datetime(${c} / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z'${kind === 'iso' ? ` WHEN ${c} IS NULL THEN NULL` : ''} ELSE ${other} END`;
    case 'boolean':
      return `CASE typeof(${c}) WHEN 'integer' THEN iif(${c} = 1, json('true'), json('false')) WHEN 'null' THEN NULL ELSE ${other} END`;
    case 'number':
      // A real beyond a double's range (infinity) is null in JSON, as JSON.stringify writes it.
      return `CASE typeof(${c}) WHEN 'integer' THEN ${c} WHEN 'null' THEN NULL WHEN 'real' THEN iif(abs(${c}) <= 1.7976931348623157e308, ${c}, NULL) ELSE ${other} END`;
    case 'json':
      // The engine stores JSON.stringify's text; json() keeps its meaning and marks it as JSON.
      return `CASE WHEN typeof(${c}) = 'text' AND json_valid(${c}) THEN json(${c}) WHEN ${c} IS NULL THEN NULL ELSE ${other} END`;
    case 'text':
      return `CASE WHEN typeof(${c}) = 'blob' THEN ${other} ELSE ${c} END`;
    case 'masked':
      return `iif(${c} IS NULL, NULL, ${literal(MASK)})`;
  }
}

const expressions = new WeakMap<ResourceModel, string>();

/**
 * The `json_object(…)` of a model's wire rows over its table's columns: `id`, `createdAt`,
 * `updatedAt`, then every stored field that is shown (a hashed secret never is), as toWireRow.
 */
export function wireJsonSql(model: ResourceModel): string {
  let expression = expressions.get(model);
  if (expression) return expression;
  const pairs = [
    `'id', ${ident('id')}`,
    `'createdAt', ${valueSql('stamp', ident('created_at'))}`,
    `'updatedAt', ${valueSql('stamp', ident('updated_at'))}`,
  ];
  for (const fs of model.stored) {
    if (fs.field.writeOnly && fs.hashed) continue;
    pairs.push(`${literal(fs.name)}, ${valueSql(wireKind(fs.field), ident(fs.column as string))}`);
  }
  expression = `json_object(${pairs.join(', ')})`;
  expressions.set(model, expression);
  return expression;
}

const renderings = new WeakMap<ResourceModel, string>();

/**
 * The SQL writing the wire JSON (UTF-8 bytes) of the rows whose ids its one parameter lists as a
 * JSON array, each with its `id` and `updated_at`: the rows of a page that row-cache.ts lacks.
 */
export function renderRowsSql(model: ResourceModel): string {
  let statement = renderings.get(model);
  if (statement) return statement;
  statement = `select "id", "updated_at", cast(${wireJsonSql(model)} as blob) from ${ident(model.table)} where "id" in (select value from json_each(?))`;
  renderings.set(model, statement);
  return statement;
}
