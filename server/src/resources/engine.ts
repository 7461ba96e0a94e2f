/**
 * The generic resource engine: list, get, create, update, delete and actions for every
 * definition of core's registry, over the tables of `storage.ts`. The routes (routes.ts) are a
 * thin HTTP layer over it; domain areas extend it (extensions.ts).
 *
 * Every write runs in one transaction with its audit row; after the commit the resource's
 * count version is bumped (counts.ts).
 */
import {
  type ActionDef,
  actionApplies,
  actionConditions,
  canCreate,
  canDelete,
  canUpdate,
  collectionActions,
  type ListQuery,
  parseListQuery,
  RESOURCES,
  type ResourceDef,
  rowActions,
  validateBody,
  validateInput,
  validateRow,
} from '@wanxiang/core';
import SqliteDatabase from 'better-sqlite3';
import { type Compilable, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { inlineLimit } from '../db/limit.js';
import type { SqliteReader } from '../db/sqlite-reader.js';
import { readTogether } from '../db/together.js';
import { conflict, invalidInput, notFound } from '../http/envelope.js';
import { type AuditNote, diffRows, writeAudit } from './audit.js';
import { bumpVersion, cachedCount, countKey, rememberCount, versionOf } from './counts.js';
import { illegalTransition, staleUpdate, uniqueConflict, unsupported } from './errors.js';
import {
  type Actor,
  type AnyDb,
  type EngineContext,
  type EngineExtensions,
  type ResourceHooks,
  ROW_KEPT,
  type WriteContext,
} from './extensions.js';
import {
  checkQueryAgainstStorage,
  compilePage,
  countRows,
  decodeCursor,
  encodeCursor,
  likePattern,
  notFoundMessage,
  type OrderKey,
  orderKeys,
  type PageRequest,
  pageKeyColumns,
  ROW_ID,
  ROW_VERSION,
} from './query.js';
import { type ReadRows, type Relations, readWith, relationsOf } from './relations.js';
import type { RowCache } from './row-cache.js';
import { changeRow } from './row-change.js';
import { type InsertRowsOptions, insertRows } from './seed.js';
import { renderRowsSql } from './sqlite-json.js';
import {
  arrayRowReader,
  creationDefaults,
  type DbRow,
  epochMs,
  fillMaskedCompanions,
  MASK,
  modelOf,
  type ResourceModel,
  toDbValues,
  toWireRow,
  WIRE_CONVERTERS,
  type WireRow,
  wireKind,
} from './storage.js';

export type RawQuery = Record<string, string | string[] | number | undefined>;

export interface ListAnswer {
  results: WireRow[];
  /** `total` is -1 when the request said `withTotal=false`. */
  page: { total: number; page: number; limit: number; nextCursor: string | null };
  relations: Relations;
}

/** `ListAnswer` with its rows as a JSON array's text, UTF-8 bytes, or those bytes' pieces (`listJson`). */
export type ListJson = Omit<ListAnswer, 'results'> & { results: string | Buffer | readonly Buffer[] };

interface PageRows {
  /** The wire rows, or null when the rows came as `json`. */
  results: WireRow[] | null;
  /** The rows as a JSON array, UTF-8 (written by SQLite), whole or in pieces. */
  json: Buffer | readonly Buffer[] | null;
  count: number;
  /** The last row's values of the order's columns. */
  last: DbRow | null;
  /** Rows with (at least) the wire values of the relation fields. */
  related: readonly Record<string, unknown>[];
}

type Listing = Omit<ListAnswer, 'results'> & Pick<PageRows, 'results' | 'json'>;

export interface EngineOptions {
  db: AnyDb;
  dialect: DialectName;
  now: () => number;
  resources?: readonly ResourceDef[];
  /** What the domain areas add (domain/areas.ts `engineExtensions()`). */
  extensions: EngineExtensions;
  /**
   * SQLite: a read-only connection to the same file for lists, totals, relation names and
   * exports (sqlite-reader.ts). Without one, every read goes through `db`.
   */
  reader?: SqliteReader | null;
  /**
   * SQLite: a read-only connection without a memory map for list totals. A COUNT walks every
   * matching index entry (~17 MB of pages for 700 000 orders); through the lists' memory map
   * each page it touched stayed in the process's RSS. Defaults to `reader`.
   */
  totalsReader?: SqliteReader | null;
  /**
   * SQLite: list rows' JSON kept by (table, id, updated_at) (row-cache.ts), used with `reader`.
   * Without one, every page's rows are written again.
   */
  rowCache?: RowCache | null;
  /** Pushes to `/ws` subscribers (app.hub); handlers publish after their commit. */
  publish?: (topic: string, data: unknown) => void;
  /** Where failures of after-commit work are logged. */
  log?: { error(object: unknown, message: string): void };
}

/** `withTotal=false` (or `0`) skips the total: the answer's `page.total` is then -1. */
function wantsTotal(raw: RawQuery): boolean {
  const value = Array.isArray(raw.withTotal) ? raw.withTotal.at(-1) : raw.withTotal;
  return !(value === 'false' || value === '0' || value === 0);
}

/** Wire-row readers per statement's column list (stable per prepared statement). */
const arrayReaders = new WeakMap<
  readonly string[],
  Map<ResourceModel, (values: readonly unknown[]) => WireRow>
>();

function arrayReaderOf(model: ResourceModel, columns: readonly string[]) {
  let byModel = arrayReaders.get(columns);
  if (!byModel) {
    byModel = new Map();
    arrayReaders.set(columns, byModel);
  }
  let reader = byModel.get(model);
  if (!reader) {
    reader = arrayRowReader(model, columns);
    byModel.set(model, reader);
  }
  return reader;
}

/** The order's values of a row read as an array whose columns are `columns`: where the next page starts. */
function lastKeys(
  keys: readonly OrderKey[],
  columns: readonly string[],
  values: readonly unknown[] | undefined,
): DbRow | null {
  if (!values) return null;
  const last: DbRow = {};
  for (const key of keys) last[key.column] = values[columns.indexOf(key.column)];
  return last;
}

/** The wire values of a model's relation fields in rows read as arrays whose columns are `columns`. */
function relationValues(
  model: ResourceModel,
  columns: readonly string[],
  rows: readonly unknown[][],
): Record<string, unknown>[] {
  if (model.relations.length === 0) return [];
  const fields = model.relations.map((fs) => ({
    name: fs.name,
    at: columns.indexOf(fs.column as string),
    convert: WIRE_CONVERTERS[wireKind(fs.field)],
  }));
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (const { name, at, convert } of fields) row[name] = convert(values[at]);
    return row;
  });
}

const { SqliteError } = SqliteDatabase;

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A JSON array's UTF-8 pieces from its items' bytes (copied once, into the answer). */
function jsonArrayPieces(items: readonly Buffer[]): Buffer[] {
  const pieces: Buffer[] = [OPEN];
  items.forEach((item, i) => {
    if (i > 0) pieces.push(COMMA);
    pieces.push(item);
  });
  pieces.push(CLOSE);
  return pieces;
}

/**
 * A page read through the row cache (`readCachedPage`, `readCachedPagePg`): every row's JSON as
 * kept or just written, and per row (`columns` order: id, version, the order's and relations'
 * columns) where the next page starts and the related names.
 */
function cachedPageRows(
  model: ResourceModel,
  keys: readonly OrderKey[],
  columns: readonly string[],
  perRow: unknown[][],
  parts: (Buffer | undefined)[],
): PageRows {
  return {
    results: null,
    json: jsonArrayPieces(parts as Buffer[]),
    count: perRow.length,
    last: lastKeys(keys, columns, perRow.at(-1)),
    related: relationValues(model, columns, perRow),
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `If-Match` carries the row's `updatedAt`, bare or as an entity tag. */
function expectedInstant(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim().replace(/^W\//, '').replace(/^"|"$/g, '');
  return epochMs(text);
}

/**
 * What one audited write did (`ResourceEngine.write`): the row it changed, before and after in
 * the wire shape (null before a create, after a delete), for the audit entry; `answer` is what
 * the caller gets back. `unchanged` (an update resending the values the row holds) writes no entry.
 */
interface AuditedChange<T> {
  /** The row changed; null for a collection action, which changes no one row. */
  id: number | null;
  before: WireRow | null;
  after: WireRow | null;
  notes?: readonly AuditNote[];
  /** Other resources the write changed: their cached list totals are dropped too. */
  touched?: Iterable<string>;
  unchanged?: boolean;
  answer: T;
}

export class ResourceEngine {
  readonly db: AnyDb;
  readonly dialect: DialectName;
  readonly resources: readonly ResourceDef[];
  readonly extensions: EngineExtensions;
  /** The SQLite read connection, when there is one (plugin.ts opens it). */
  readonly reader: SqliteReader | null;
  /** Runs a compiled SELECT outside any transaction: on the reader when there is one. */
  readonly read: ReadRows;
  /** `read` for list totals (see `EngineOptions.totalsReader`). */
  private readonly readTotal: ReadRows;
  private readonly rowCache: RowCache | null;
  readonly now: () => number;
  private readonly byName: Map<string, ResourceDef>;

  constructor(options: EngineOptions) {
    this.db = options.db;
    this.dialect = options.dialect;
    this.now = options.now;
    this.resources = options.resources ?? RESOURCES;
    this.extensions = options.extensions;
    this.byName = new Map(this.resources.map((r) => [r.name, r]));
    const reader = options.reader ?? null;
    this.reader = reader;
    this.read = reader ? async (query) => reader.objects(query.sql, query.parameters) : readWith(this.db);
    const totals = options.totalsReader ?? null;
    this.readTotal = totals ? async (query) => totals.objects(query.sql, query.parameters) : this.read;
    this.rowCache = options.rowCache ?? null;
    this.publish = options.publish ?? (() => 0);
    this.log = options.log ?? { error: (object, message) => console.error(message, object) };
  }

  private readonly publish: (topic: string, data: unknown) => void;
  private readonly log: { error(object: unknown, message: string): void };

  resource(name: string): ResourceDef | undefined {
    return this.byName.get(name);
  }

  private hooks(def: ResourceDef): ResourceHooks {
    return this.extensions.hooksOf(def.name);
  }

  private context(def: ResourceDef, actor: Actor): EngineContext {
    return {
      db: this.db,
      dialect: this.dialect,
      now: this.now(),
      def,
      user: actor.user,
      ip: actor.ip,
      publish: this.publish,
    };
  }

  // ---- reading ------------------------------------------------------------------------------

  parseQuery(def: ResourceDef, raw: RawQuery): ListQuery {
    const parsed = parseListQuery(def, raw);
    if (!parsed.ok) throw invalidInput(parsed.fields);
    checkQueryAgainstStorage(modelOf(def), parsed.value);
    return parsed.value;
  }

  async toWire(def: ResourceDef, rows: readonly DbRow[], db: AnyDb = this.db): Promise<WireRow[]> {
    const model = modelOf(def);
    const out = rows.map((row) => toWireRow(model, row));
    if (out.length > 0) await this.hooks(def).loadVirtual?.(db, out);
    return out;
  }

  relations(def: ResourceDef, rows: readonly Record<string, unknown>[]): Promise<Relations> {
    return relationsOf(this.db, def, rows, (name) => this.resource(name), {
      reader: this.reader,
      read: this.read,
      cache: { db: this.db, now: this.now },
    });
  }

  /**
   * The page as SQLite writes it (query.ts `wholePage`): the rows' JSON as bytes, and per row
   * the order's and relations' values. Null when SQLite cannot write it (a key column holding a
   * blob, which JSON cannot hold): the page is then read the JavaScript way.
   */
  private readWholePage(
    reader: SqliteReader,
    def: ResourceDef,
    page: PageRequest,
    keys: readonly OrderKey[],
  ): PageRows | null {
    const model = modelOf(def);
    if (this.rowCache) {
      const cached = this.readCachedPage(reader, this.rowCache, def, page, keys);
      if (cached) return cached;
    }
    const compiled = compilePage(this.db, this.dialect, def, { ...page, columns: 'wireJson' });
    let row: unknown[];
    try {
      row = reader.arrays(compiled.sql, compiled.parameters).rows[0] as unknown[];
    } catch (error) {
      if (error instanceof SqliteError) return null;
      throw error;
    }
    const columns = pageKeyColumns(model, keys);
    const perRow = JSON.parse(row[1] as string) as unknown[][];
    return {
      results: null,
      json: row[0] as Buffer,
      count: perRow.length,
      last: lastKeys(keys, columns, perRow.at(-1)),
      related: relationValues(model, columns, perRow),
    };
  }

  /**
   * `readWholePage` through the row cache: which rows the page holds, with their `updated_at`
   * (the list's query, without writing any JSON), then the JSON of those the cache lacks, written
   * by SQLite and kept. Null — the page is then read whole — when SQLite cannot answer (see
   * `readWholePage`), or when a row changed or went between the two statements (the page must be
   * one moment's rows).
   */
  private readCachedPage(
    reader: SqliteReader,
    cache: RowCache,
    def: ResourceDef,
    page: PageRequest,
    keys: readonly OrderKey[],
  ): PageRows | null {
    const model = modelOf(def);
    const compiled = compilePage(this.db, this.dialect, def, { ...page, columns: 'versions' });
    let perRow: unknown[][];
    try {
      const row = reader.arrays(compiled.sql, compiled.parameters).rows[0] as unknown[];
      perRow = JSON.parse(row[0] as string) as unknown[][];
    } catch (error) {
      if (error instanceof SqliteError) return null;
      throw error;
    }
    const now = this.now();
    const parts: (Buffer | undefined)[] = perRow.map((values) =>
      cache.get(model.table, values[0], values[1], now),
    );
    const missing = perRow.filter((_, i) => parts[i] === undefined);
    if (missing.length > 0) {
      const ids = missing.map((values) => values[0]);
      let rendered: unknown[][];
      try {
        rendered = reader.arrays(renderRowsSql(model), [JSON.stringify(ids)]).rows;
      } catch (error) {
        if (error instanceof SqliteError) return null;
        throw error;
      }
      const byId = new Map(rendered.map((values) => [values[0], values]));
      for (let i = 0; i < perRow.length; i++) {
        if (parts[i]) continue;
        const [id, version] = perRow[i] as unknown[];
        const fresh = byId.get(id);
        if (!fresh || fresh[1] !== version) return null;
        parts[i] = fresh[2] as Buffer;
        cache.set(model.table, id, version, fresh[2] as Buffer, now);
      }
    }
    return cachedPageRows(model, keys, [ROW_ID, ROW_VERSION, ...pageKeyColumns(model, keys)], perRow, parts);
  }

  /**
   * `readCachedPage` on PostgreSQL: which rows the page holds with their `updated_at` (the list's
   * query with three or four columns instead of all of them), then only the rows the cache lacks,
   * each written as JSON once and kept. The same answer as reading every row (the JSON is what
   * `JSON.stringify` of the wire rows gives), without parsing and converting forty columns of
   * twenty rows and writing their JSON again on every call: at 32 connections on the orders list
   * that was most of the server's CPU and garbage. Null when a row changed or went between the
   * two statements (the page must be one moment's rows): the page is then read whole.
   */
  private async readCachedPagePg(
    cache: RowCache,
    def: ResourceDef,
    page: PageRequest,
    keys: readonly OrderKey[],
  ): Promise<PageRows | null> {
    const model = modelOf(def);
    const compiled = compilePage(this.db, this.dialect, def, { ...page, columns: 'versions' });
    const columns = [ROW_ID, ROW_VERSION, ...pageKeyColumns(model, keys)];
    const listed = (await this.db.executeQuery(compiled)).rows as Record<string, unknown>[];
    const perRow = listed.map((row) => columns.map((column) => row[column]));
    const now = this.now();
    const parts: (Buffer | undefined)[] = perRow.map((values) =>
      cache.get(model.table, values[0], values[1], now),
    );
    const missing = perRow.filter((_, i) => parts[i] === undefined).map((values) => values[0] as number);
    if (missing.length > 0) {
      const fresh = (await this.db
        .selectFrom(model.table)
        .selectAll()
        .where(sql.ref('id'), 'in', missing)
        .execute()) as DbRow[];
      const byId = new Map(fresh.map((row) => [row.id, row]));
      for (let i = 0; i < perRow.length; i++) {
        if (parts[i]) continue;
        const [id, version] = perRow[i] as unknown[];
        const row = byId.get(id);
        if (!row || row.updated_at !== version) return null;
        const json = Buffer.from(JSON.stringify(toWireRow(model, row)));
        parts[i] = json;
        cache.set(model.table, id, version, json, now);
      }
    }
    return cachedPageRows(model, keys, columns, perRow, parts);
  }

  /**
   * The rows of a page, plus the last row's values of the order's columns (where the next page
   * starts) and rows holding at least the relation fields (for the related names). `asJson` asks
   * for the rows as one JSON text, which SQLite writes where it can (sqlite-json.ts); otherwise
   * they are wire rows: on the SQLite reader made from arrays, else from Kysely's row objects.
   */
  private async readPage(
    def: ResourceDef,
    page: PageRequest,
    keys: readonly OrderKey[],
    asJson: boolean,
  ): Promise<PageRows> {
    const model = modelOf(def);
    const reader = this.reader;
    if (reader && asJson && !this.hooks(def).loadVirtual) {
      const whole = this.readWholePage(reader, def, page, keys);
      if (whole) return whole;
    }
    if (!reader && asJson && this.rowCache && !this.hooks(def).loadVirtual) {
      const cached = await this.readCachedPagePg(this.rowCache, def, page, keys);
      if (cached) return cached;
    }
    const compiled = compilePage(this.db, this.dialect, def, page);
    if (!reader) {
      const dbRows = (await this.db.executeQuery(compiled)).rows as DbRow[];
      const results = await this.toWire(def, dbRows);
      return { results, json: null, count: dbRows.length, last: dbRows.at(-1) ?? null, related: results };
    }
    const { columns, rows } = reader.arrays(compiled.sql, compiled.parameters);
    const toWire = arrayReaderOf(model, columns);
    const results = rows.map(toWire);
    if (results.length > 0) await this.hooks(def).loadVirtual?.(this.db, results);
    return {
      results,
      json: null,
      count: rows.length,
      last: lastKeys(keys, columns, rows.at(-1)),
      related: results,
    };
  }

  /** A page of the list, with its total, next cursor and related names (`list`, `listJson`). */
  private async listing(def: ResourceDef, raw: RawQuery, asJson: boolean): Promise<Listing> {
    const query = this.parseQuery(def, raw);
    const model = modelOf(def);
    const { limit, page } = query;
    const store = this.hooks(def).store;
    if (store) {
      const all = await store.list(this.db);
      const results = all.slice((page - 1) * limit, page * limit);
      return {
        results,
        json: null,
        page: { total: wantsTotal(raw) ? all.length : -1, page, limit, nextCursor: null },
        relations: await this.relations(def, results),
      };
    }
    const keys = orderKeys(model, query);
    const after = query.cursor ? decodeCursor(keys, query.cursor) : null;
    const offset = after ? 0 : (page - 1) * limit;
    const version = versionOf(this.db, def.name);
    const { results, json, count, last, related } = await this.readPage(
      def,
      { query, after, limit, offset },
      keys,
      asJson,
    );
    const full = count === limit;
    const nextCursor = full && last ? encodeCursor(keys, last) : null;

    const key = countKey(def.name, query);
    const now = this.now();
    let total: number;
    if (!full && !after && (count > 0 || offset === 0)) {
      // The last page tells the total by itself.
      total = offset + count;
      rememberCount(this.db, key, version, now, total);
      if (!wantsTotal(raw)) total = -1;
    } else if (!wantsTotal(raw)) {
      total = -1;
    } else {
      total = await cachedCount(this.db, def.name, key, now, () =>
        countRows(this.db, this.dialect, def, query, this.readTotal),
      );
    }
    return {
      results,
      json,
      page: { total, page, limit, nextCursor },
      relations: await this.relations(def, related),
    };
  }

  async list(def: ResourceDef, raw: RawQuery): Promise<ListAnswer> {
    const { results, page, relations } = await this.listing(def, raw, false);
    return { results: results ?? [], page, relations };
  }

  /**
   * The list as the HTTP answer carries it: `results` as JSON text (written by SQLite where it
   * can, see sqlite-json.ts), `page` and `relations` as values — the same answer as `list`.
   */
  async listJson(def: ResourceDef, raw: RawQuery): Promise<ListJson> {
    const { results, json, page, relations } = await this.listing(def, raw, true);
    return { results: json ?? JSON.stringify(results), page, relations };
  }

  private liveRow(db: AnyDb, model: ResourceModel, id: number, lock = false) {
    let qb = db.selectFrom(model.table).selectAll().where(sql.ref('id'), '=', id);
    if (model.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
    if (lock && this.dialect === 'postgres') qb = qb.forUpdate();
    return qb.executeTakeFirst() as Promise<DbRow | undefined>;
  }

  async get(def: ResourceDef, id: number | null, db: AnyDb = this.db): Promise<WireRow> {
    if (id === null) throw notFound(notFoundMessage(def));
    const store = this.hooks(def).store;
    if (store) {
      const row = await store.get(db, id);
      if (!row) throw notFound(notFoundMessage(def));
      return row;
    }
    const row = await this.liveRow(db, modelOf(def), id);
    if (!row) throw notFound(notFoundMessage(def));
    return (await this.toWire(def, [row], db))[0] as WireRow;
  }

  /** `insertRows` (seed.ts) on this engine's database with the areas' hooks: for seeders and tests. */
  insertRows(
    def: ResourceDef,
    rows: readonly Record<string, unknown>[],
    options: Omit<InsertRowsOptions, 'extensions'> = {},
  ): Promise<number[]> {
    return insertRows(this.db, def, rows, { ...options, extensions: this.extensions });
  }

  // ---- writing ------------------------------------------------------------------------------

  /** Runs `work` in a transaction; a unique violation becomes a 409 naming the field. */
  private async transaction<T>(def: ResourceDef, work: (trx: AnyDb) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } catch (error) {
      throw uniqueConflict(modelOf(def), error) ?? error;
    }
  }

  /**
   * The one audited write: `work` changes rows in a transaction and says what it changed; the
   * audit entry (`<resource>.<verb>`, who, from where, the before/after diff) is written in the
   * same transaction, and once it commits the cached totals of every resource it changed are
   * dropped. Creates, updates, deletes, transitions and handler actions all go through here.
   */
  private async write<T>(
    ctx: EngineContext,
    verb: string,
    work: (ctx: WriteContext) => Promise<AuditedChange<T>>,
  ): Promise<T> {
    const { def } = ctx;
    let done: AuditedChange<T> | undefined;
    const afterCommit: (() => unknown)[] = [];
    const answer = await this.transaction(def, async (trx) => {
      afterCommit.length = 0; // a retried transaction starts afresh
      const change = await work({ ...ctx, trx, afterCommit: (fn) => afterCommit.push(fn) });
      if (!change.unchanged) {
        await writeAudit(trx, {
          userId: ctx.user?.id ?? null,
          action: `${def.name}.${verb}`,
          resource: def.name,
          recordId: change.id,
          ...diffRows(def, change.before, change.after, change.notes),
          ip: ctx.ip,
          now: ctx.now,
        });
      }
      done = change;
      return change.answer;
    });
    if (done && !done.unchanged) this.committed(def.name, ...(done.touched ?? []));
    // Work that must not hold the transaction or happen unless it committed (a push over /ws, a
    // receipt sent to a printer): started now, not awaited; failures are logged.
    for (const fn of afterCommit)
      void Promise.resolve()
        .then(fn)
        .catch((error) => this.log.error({ err: error, resource: def.name }, 'after-commit work failed'));
    return answer;
  }

  private committed(...resources: string[]): void {
    const names = new Set([...resources, 'auditLogs']);
    for (const name of resources)
      for (const other of this.extensions.hooksOf(name).touches ?? []) names.add(other);
    for (const name of names) bumpVersion(this.db, name);
  }

  /** The live row `id` (404 when there is none), checked against the version the caller expects. */
  private async currentRow(
    trx: AnyDb,
    def: ResourceDef,
    id: number,
    expected: number | undefined,
  ): Promise<{ row: DbRow; wire: WireRow }> {
    // Locked on PostgreSQL until the write commits: otherwise another transaction committing a
    // change to the row between this read and the UPDATE (conditional on this version) makes a
    // write that claimed no version answer 409, as seen under bench/load.ts (SQLite writes one
    // transaction at a time).
    const row = await this.liveRow(trx, modelOf(def), id, true);
    if (!row) throw notFound(notFoundMessage(def));
    if (expected !== undefined && Number(row.updated_at) !== expected) throw staleUpdate();
    return { row, wire: (await this.toWire(def, [row], trx))[0] as WireRow };
  }

  /** Related rows named in `values` must exist (and not be deleted). */
  private async checkRelations(def: ResourceDef, values: Record<string, unknown>): Promise<void> {
    const checks: { name: string; label: string; ids: number[]; query: Compilable<unknown> }[] = [];
    for (const fs of modelOf(def).stored) {
      const value = values[fs.name];
      const field = fs.field;
      if (value === undefined || value === null) continue;
      if (field.type !== 'relation' && field.type !== 'relationList') continue;
      const target = this.resource(field.resource);
      if (!target) continue;
      const targetModel = modelOf(target);
      if (!targetModel.hasTable) continue;
      const ids = [...new Set(Array.isArray(value) ? (value as number[]) : [value as number])];
      if (ids.length === 0) continue;
      let qb = this.db
        .selectFrom(targetModel.table)
        .select(sql.ref('id').as('id'))
        .where(sql.ref('id'), 'in', ids);
      if (targetModel.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
      checks.push({ name: fs.name, label: field.label, ids, query: qb });
    }
    if (checks.length === 0) return;
    // One round trip for all of them on PostgreSQL (db/together.ts).
    const found = await readTogether(
      this.db,
      checks.map((c) => c.query),
    );
    const fields: Record<string, string> = {};
    checks.forEach((c, i) => {
      if ((found[i]?.length ?? 0) < c.ids.length) fields[c.name] = `所选的${c.label}不存在`;
    });
    if (Object.keys(fields).length > 0) throw invalidInput(fields);
  }

  /**
   * A relation declared `within` another field (a good's 分类 `within: 'storeId'`) must point at a
   * row that agrees on that field with the row being written — `row` is the whole row after the
   * write. Read in the write's transaction, so the category cannot move meanwhile.
   */
  private async checkWithin(
    trx: AnyDb,
    def: ResourceDef,
    row: Record<string, unknown>,
    changed?: Record<string, unknown>,
  ): Promise<void> {
    const fields: Record<string, string> = {};
    for (const [name, field] of Object.entries(def.fields)) {
      if (field.type !== 'relation' || field.within === undefined) continue;
      // An update is checked on what it changes: a good's stock changed does not re-check the
      // category it already had (a read per save, and an error about a field nobody touched).
      if (changed && !(name in changed) && !(field.within in changed)) continue;
      const id = row[name];
      const expected = row[field.within];
      if (id === null || id === undefined || expected === null || expected === undefined) continue;
      const target = this.resource(field.resource);
      if (!target) continue;
      const targetModel = modelOf(target);
      const column = targetModel.byName.get(field.within)?.column;
      if (!targetModel.hasTable || !column) continue;
      const found = await trx
        .selectFrom(targetModel.table)
        .select(sql.ref(column).as('value'))
        .where(sql.ref('id'), '=', Number(id))
        .executeTakeFirst();
      if (found && Number(found.value) !== Number(expected)) {
        const ownLabel = def.fields[field.within]?.label ?? field.within;
        fields[name] = field.withinMessage ?? `所选${field.label}不属于该${ownLabel}`;
      }
    }
    if (Object.keys(fields).length > 0) throw invalidInput(fields);
  }

  /** The definition's cross-field rules on the whole row (core's `rules`): 422 per field. */
  private checkRules(def: ResourceDef, row: Record<string, unknown>): void {
    const checked = validateRow(def, row);
    if (!checked.ok) throw invalidInput(checked.fields);
  }

  /**
   * Audit notes for write-only values given (a new password, a new secret): the row shows them
   * masked or not at all, so a change would otherwise not show.
   */
  private writeOnlyNotes(
    def: ResourceDef,
    values: Record<string, unknown>,
    before: WireRow | null,
  ): AuditNote[] {
    return modelOf(def)
      .fields.filter((fs) => fs.field.writeOnly && values[fs.name] !== undefined)
      .map((fs) => ({
        field: fs.name,
        before: before ? (fs.hashed ? MASK : (before[fs.name] ?? null)) : null,
        after: values[fs.name] === null ? null : MASK,
      }));
  }

  async create(def: ResourceDef, body: unknown, actor: Actor): Promise<WireRow> {
    const creator = this.extensions.creator(def.name);
    if (creator) {
      const prepared = await creator.prepare?.(body);
      const row = await this.write(this.context(def, actor), 'create', async (ctx) => {
        const touched = new Set<string>();
        const after = await creator.run({ ...ctx, body, prepared, touched: (r) => touched.add(r) });
        return { id: after.id, before: null, after, touched, answer: after };
      });
      return creator.answer ? creator.answer(row, prepared) : row;
    }
    if (!canCreate(def) || !modelOf(def).hasTable) throw unsupported();
    const validated = validateBody(def, body, 'create');
    if (!validated.ok) throw invalidInput(validated.fields);
    const model = modelOf(def);
    const values = { ...creationDefaults(model), ...validated.value };
    this.checkRules(def, values);
    fillMaskedCompanions(model, values);
    await this.checkRelations(def, values);
    const hooks = this.hooks(def);
    // Within-checks read the values as given, before a hook transforms them (a password hashed).
    const whole = { ...values };
    await hooks.prepare?.(values, { memo: new Map() });
    return this.write(this.context(def, actor), 'create', async (ctx) => {
      await this.checkWithin(ctx.trx, def, whole);
      await hooks.beforeCreate?.(ctx, values);
      const inserted = (await ctx.trx
        .insertInto(model.table)
        .values({ ...toDbValues(model, values), created_at: ctx.now, updated_at: ctx.now })
        .returningAll()
        .executeTakeFirstOrThrow()) as DbRow;
      const id = Number(inserted.id);
      let row = inserted;
      const wrote = await hooks.afterWrite?.(ctx, id, values, null);
      const created = await hooks.afterCreate?.(ctx, id, values);
      // Read again when a hook may have changed the row (one that did not says so).
      const changed = (hook: unknown, answer: unknown) => hook !== undefined && answer !== ROW_KEPT;
      if (changed(hooks.afterWrite, wrote) || changed(hooks.afterCreate, created))
        row = (await this.liveRow(ctx.trx, model, id)) ?? inserted;
      const after = (await this.toWire(def, [row], ctx.trx))[0] as WireRow;
      return { id, before: null, after, notes: this.writeOnlyNotes(def, values, null), answer: after };
    });
  }

  async update(
    def: ResourceDef,
    id: number | null,
    body: unknown,
    actor: Actor,
    ifMatch?: string,
  ): Promise<WireRow> {
    if (!canUpdate(def)) throw unsupported();
    if (id === null) throw notFound(notFoundMessage(def));
    if (!isPlainObject(body)) throw invalidInput(undefined, '请求内容须为对象');
    // The row's own system fields may come back with it; `updatedAt` is the stale check.
    const { updatedAt: bodyUpdatedAt, id: _id, createdAt: _createdAt, ...rest } = body;
    // An unreadable If-Match / updatedAt can match no version: stale.
    const expected = ifMatch ? expectedInstant(ifMatch) : expectedInstant(bodyUpdatedAt);
    if (expected === null) throw staleUpdate();
    const validated = validateBody(def, rest, 'update');
    if (!validated.ok) throw invalidInput(validated.fields);
    const model = modelOf(def);
    const values = validated.value;
    // A form that sends the mask back keeps the stored secret.
    for (const fs of model.fields) if (fs.field.writeOnly && values[fs.name] === MASK) delete values[fs.name];
    fillMaskedCompanions(model, values);
    await this.checkRelations(def, values);
    const hooks = this.hooks(def);
    const ctx = this.context(def, actor);

    const store = hooks.store;
    if (store) {
      return this.write(ctx, 'update', async (ctx) => {
        const before = await store.get(ctx.trx, id);
        if (!before) throw notFound(notFoundMessage(def));
        if (expected !== undefined && epochMs(before.updatedAt) !== expected) throw staleUpdate();
        const after = await store.update(ctx, id, values);
        return { id, before, after, answer: after };
      });
    }

    // Wire values of what is asked, to tell a real change from a resend of the same values.
    const wanted = toWireRow(model, { id, ...toDbValues(model, values) });
    await hooks.prepare?.(values, { memo: new Map() });
    return this.write(ctx, 'update', async (ctx) => {
      const current = await this.currentRow(ctx.trx, def, id, expected);
      const before = current.wire;
      // The rules hold for the row as it will be: the stored row with the changes over it.
      const whole = { ...before, ...values };
      this.checkRules(def, whole);
      await this.checkWithin(ctx.trx, def, whole, values);
      const differs = Object.keys(values).some((k) => {
        const fs = model.byName.get(k);
        if (!fs || fs.field.writeOnly) return true;
        const next = fs.column === null ? values[k] : wanted[k];
        return JSON.stringify(next ?? null) !== JSON.stringify(before[k] ?? null);
      });
      if (!differs) return { id, before, after: before, unchanged: true, answer: before };
      const updated = await changeRow(ctx.trx, model, id, ctx.now, {
        values,
        version: current.row.updated_at,
      });
      if (!updated) throw staleUpdate();
      let row = updated;
      if (hooks.afterWrite && (await hooks.afterWrite(ctx, id, values, before)) !== ROW_KEPT)
        row = (await this.liveRow(ctx.trx, model, id)) ?? updated;
      const after = (await this.toWire(def, [row], ctx.trx))[0] as WireRow;
      return { id, before, after, notes: this.writeOnlyNotes(def, values, before), answer: after };
    });
  }

  /** A row of `def` still referred to by a live row of another resource: its title, else null. */
  private async referencedBy(trx: AnyDb, def: ResourceDef, id: number): Promise<string | null> {
    for (const other of this.resources) {
      const model = modelOf(other);
      if (!model.hasTable) continue;
      for (const fs of model.stored) {
        const field = fs.field;
        if ((field.type !== 'relation' && field.type !== 'relationList') || field.resource !== def.name)
          continue;
        const column = fs.column as string;
        let qb = trx.selectFrom(model.table).select(sql.ref('id').as('id')).limit(inlineLimit(1));
        qb =
          field.type === 'relation'
            ? qb.where(sql.ref(column), '=', id)
            : qb.where(
                sql<SqlBool>`replace(replace(${sql.ref(column)}, '[', ','), ']', ',') like ${likePattern(`,${id},`)} escape '!'`,
              );
        if (model.softDelete) qb = qb.where(sql.ref('deleted_at'), 'is', null);
        if (other.name === def.name) qb = qb.where(sql.ref('id'), '<>', id);
        if (await qb.executeTakeFirst()) return other.title;
      }
    }
    return null;
  }

  async remove(def: ResourceDef, id: number | null, actor: Actor): Promise<void> {
    const model = modelOf(def);
    if (!canDelete(def) || !model.hasTable) throw unsupported();
    if (id === null) throw notFound(notFoundMessage(def));
    const hooks = this.hooks(def);
    const ctx = this.context(def, actor);
    await this.write(ctx, 'delete', async (ctx) => {
      const { wire: before } = await this.currentRow(ctx.trx, def, id, undefined);
      // In the transaction: what it counts (a store's open orders) cannot change before the delete.
      await hooks.beforeDelete?.(ctx, id);
      if (model.softDelete) {
        await changeRow(ctx.trx, model, id, ctx.now, { columns: { deleted_at: ctx.now } });
      } else {
        const user = await this.referencedBy(ctx.trx, def, id);
        if (user) throw conflict(`该${def.title}仍被${user}使用，不能删除`);
        await ctx.trx.deleteFrom(model.table).where(sql.ref('id'), '=', id).execute();
      }
      await hooks.afterDelete?.(ctx, id);
      return { id, before, after: null, answer: undefined };
    });
  }

  /**
   * A domain area's own audited change of row `id` of `def` — one the registry offers no route
   * for (the system cancelling an unpaid order): `work` runs in the one audited write (audit entry
   * `<resource>.<verb>`, totals dropped after the commit, after-commit work) and answers the row
   * after it. The row before is read here.
   */
  async writeRow(
    def: ResourceDef,
    id: number,
    verb: string,
    actor: Actor,
    work: (ctx: WriteContext & { touched(resource: string): void }) => Promise<WireRow>,
  ): Promise<WireRow> {
    return this.write(this.context(def, actor), verb, async (ctx) => {
      const before = await this.get(def, id, ctx.trx);
      const touched = new Set<string>();
      const after = await work({ ...ctx, touched: (r) => touched.add(r) });
      return { id, before, after, touched, answer: after };
    });
  }

  // ---- actions ------------------------------------------------------------------------------

  async action(
    def: ResourceDef,
    id: number | null,
    name: string,
    body: unknown,
    actor: Actor,
    ifMatch?: string,
  ): Promise<WireRow> {
    const action = rowActions(def).find((a) => a.name === name);
    if (!action) throw notFound(`${def.title}没有“${name}”操作`);
    if (id === null) throw notFound(notFoundMessage(def));
    const input = this.actionInput(action, body);
    const expected = expectedInstant(ifMatch);
    if (expected === null) throw staleUpdate();
    return action.effect.kind === 'transition'
      ? this.transition(def, id, action, actor, expected)
      : this.handle(def, id, action, input, actor, expected);
  }

  /** An action's validated input (its fields, then its cross-field rules): 422 per field. */
  private actionInput(action: ActionDef, body: unknown): Record<string, unknown> {
    if (!action.input) return {};
    const validated = validateInput(action.input, body ?? {}, action.rules);
    if (!validated.ok) throw invalidInput(validated.fields);
    return validated.value;
  }

  /**
   * A collection action (`scope: 'collection'`, `POST /api/admin/<name>/<action>`): its handler
   * runs in one audited write — the entry names no row and records the input as its "after" —
   * and answers whatever the handler returns (a summary such as the batch written).
   */
  async collectionAction(def: ResourceDef, name: string, body: unknown, actor: Actor): Promise<unknown> {
    const action = collectionActions(def).find((a) => a.name === name);
    if (!action) throw notFound(`${def.title}没有“${name}”操作`);
    const input = this.actionInput(action, body);
    const handler = this.extensions.collectionHandler(def.name, action.name);
    if (!handler) throw new Error(`no handler for ${def.name}.${action.name}`);
    return this.write(this.context(def, actor), action.name, async (ctx) => {
      const notes: AuditNote[] = Object.entries(input).map(([field, value]) => ({
        field,
        before: null,
        after: value,
      }));
      const touched = new Set<string>();
      const answer = await handler({
        ...ctx,
        action,
        input,
        note: (field, b, a) => notes.push({ field, before: b, after: a }),
        touched: (resource) => touched.add(resource),
      });
      return { id: null, before: null, after: {} as WireRow, notes, touched, answer: answer ?? null };
    });
  }

  /** A declared state change (`effect: transition`): the row change of row-change.ts, from the declared states only. */
  private async transition(
    def: ResourceDef,
    id: number,
    action: ActionDef,
    actor: Actor,
    expected: number | undefined,
  ): Promise<WireRow> {
    const effect = action.effect;
    if (effect.kind !== 'transition') throw new Error('not a transition');
    const model = modelOf(def);
    return this.write(this.context(def, actor), action.name, async (ctx) => {
      const { wire: before } = await this.currentRow(ctx.trx, def, id, expected);
      const values: Record<string, unknown> = { [effect.field]: effect.to };
      for (const [field, value] of Object.entries(effect.set ?? {}))
        values[field] = value === 'now' ? ctx.now : null;
      const updated = await changeRow(ctx.trx, model, id, ctx.now, {
        values,
        when: actionConditions(action),
      });
      if (!updated) throw illegalTransition();
      const after = (await this.toWire(def, [updated], ctx.trx))[0] as WireRow;
      return { id, before, after, answer: after };
    });
  }

  /** An action whose effect an area's handler carries out (extensions.ts). */
  private async handle(
    def: ResourceDef,
    id: number,
    action: ActionDef,
    input: Record<string, unknown>,
    actor: Actor,
    expected: number | undefined,
  ): Promise<WireRow> {
    const spec = this.extensions.handler(def.name, action.name);
    if (!spec) throw new Error(`no handler for ${def.name}.${action.name}`);
    const ctx = this.context(def, actor);
    const prepared = await spec.prepare?.({ ...ctx, id, input });
    const answer = await this.write(ctx, action.name, async (ctx) => {
      const before = await this.get(def, id, ctx.trx);
      if (expected !== undefined && epochMs(before.updatedAt) !== expected) throw staleUpdate();
      // The states core declares for the action (the handler's own update re-checks them atomically).
      if (!actionApplies(action, before)) throw spec.refusal?.(before) ?? illegalTransition();
      const notes: AuditNote[] = [];
      const touched = new Set<string>();
      const result = await spec.run({
        ...ctx,
        action,
        id,
        row: before,
        input,
        prepared,
        note: (field, b, a) => notes.push({ field, before: b, after: a }),
        touched: (resource) => touched.add(resource),
      });
      const after = result ?? (await this.get(def, id, ctx.trx).catch(() => null));
      // A handler may answer another resource's row (a restored version): the entry diffs this row.
      const audited = after && after.id === id ? after : before;
      return { id, before, after: audited, notes, touched, answer: after ?? before };
    });
    return spec.afterCommit ? spec.afterCommit({ ...ctx, id, input, prepared }, answer) : answer;
  }

  /** The message an action's answer carries: its handler's say, else `<label>成功`. */
  actionMessage(def: ResourceDef, name: string, answer: WireRow): string | undefined {
    const said = this.extensions.handler(def.name, name)?.message?.(answer);
    if (said !== undefined) return said;
    const label = def.actions?.find((a) => a.name === name)?.label;
    return label ? `${label}成功` : undefined;
  }
}

export type { WriteContext };
