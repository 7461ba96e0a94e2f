/**
 * `GET /api/admin/R/export?format=csv|ndjson&…`: every row matching the list's filters, streamed
 * with constant memory. Rows are read in keyset batches (no OFFSET), one batch per turn of the
 * event loop: a batch is read and formatted synchronously into one chunk (a few milliseconds of
 * work), pushed to the response, and the next one is started from `setImmediate` only once the
 * socket wants more — so other requests are served between any two batches, and a slow client
 * holds the export back instead of filling the server's memory.
 *
 * CSV is for people in Excel: UTF-8 with a BOM, a header of Chinese labels, enum labels instead
 * of values, money in yuan with two decimals, times as `YYYY-MM-DD HH:mm` in China time, related
 * rows as id and name, and text that a spreadsheet would run as a formula prefixed with `'`.
 * NDJSON is for programs: one wire row per line, exactly as the list answers it.
 *
 * Speed (1 000 000 orders; `node --cpu-prof` of the server during `wanxiang orders export`, and
 * server/bench/export-formats.ts): the first version spent 42–65 s, mostly in Kysely's per-batch
 * statement preparation and row objects, wire rows, `Date` and `Intl`-free but per-cell generic
 * formatting, and a names query per batch. Now:
 * - rows are read as arrays on SQLite's read connection with one prepared statement
 *   (sqlite-reader.ts) — about 3 µs a row, most of it better-sqlite3 making 35 JS values;
 * - each column's cell is made from the stored value by one `switch` over column kinds chosen
 *   once per export (csv-format.ts: money and China time by arithmetic, enum labels from a map,
 *   JSON already in canonical form copied rather than parsed and re-serialised) — about 4 µs;
 * - related names are remembered for the whole export (100 000 per field at most), so each
 *   customer is read once, not once per order; the formatted name cell is what is kept;
 * - each line is encoded straight into the batch's buffer, with no string of the whole batch.
 * Rows of resources with fields kept elsewhere (users.roles) or not in a table (platformConfig)
 * go through their wire rows.
 */
import { Readable } from 'node:stream';
import type { FieldDef, ListQuery, ResourceDef } from '@wanxiang/core';
import type { CompiledQuery } from 'kysely';
import type { DialectName } from '../db/connect.js';
import type { SqliteReader } from '../db/sqlite-reader.js';
import { chinaTimeOfStored, csvCell, inert, needsQuotes, storedJsonText, yuanText } from './csv-format.js';
import type { ResourceEngine } from './engine.js';
import { ChunkPool } from './export-chunks.js';
import { WholeNames } from './export-names.js';
import { type ParallelExport, parallelCsvExport } from './export-parallel.js';
import type { AnyDb, EngineExtensions } from './extensions.js';
import { type OrderKey, orderKeys, selectPage } from './query.js';
import { displayNames, nameReader } from './relations.js';
import { arrayRowReader, modelOf, type WireRow } from './storage.js';
import { CHINA_OFFSET_MS } from './time-format.js';

/** Rows per batch: a few milliseconds of reading and formatting, the longest other requests wait. */
export const EXPORT_BATCH = 1000;
/**
 * Related names remembered during one export, per relation field: an order export names each of
 * ~100 000 customers about ten times, and reading a name again is a random row lookup. ~6.5 MB
 * per 100 000, dropped when the export ends.
 */
const NAME_CACHE = 200_000;
/**
 * Names of one relation field looked up one by one, after which a streamed export reads the
 * related table's names all at once (into a `WholeNames`) if it has at most NAME_CACHE rows: an
 * export that met this many different customers is likely to meet most of them, and one read of
 * 100 000 users takes ~60 ms where 100 000 lookups take ~400 ms.
 */
const WHOLE_TABLE_AFTER = 2000;
const BOM = '\uFEFF';
/**
 * Page caches of an export's connections: the rows' (each table page is read once, so only the
 * index's upper levels need keeping) and the related names' (the related tables' pages, read
 * again and again).
 */
export const EXPORT_CACHE_KIB = 512;
export const NAMES_CACHE_KIB = 256;

export type ExportFormat = 'csv' | 'ndjson';

/** `YYYY-MM-DD HH:mm` in China time of a wire datetime (ISO text), '' for none. */
export function chinaTime(iso: unknown): string {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return '';
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

function optionLabel(field: FieldDef, value: unknown): string {
  if (field.type !== 'enum' && field.type !== 'enumList') return String(value);
  return field.options.find((o) => o.value === value)?.label ?? String(value);
}

/** A wire value as the text of its cell (before quoting): the definition every cell follows. */
function cellText(field: FieldDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'money':
      return yuanText(Number(value));
    case 'datetime':
      return chinaTime(value);
    case 'boolean':
      return value ? '是' : '否';
    case 'enum':
      return optionLabel(field, value);
    case 'enumList':
      return Array.isArray(value) ? value.map((v) => optionLabel(field, v)).join('、') : '';
    case 'stringList':
      return Array.isArray(value) ? inert(value.map(String).join('、')) : '';
    case 'relationList':
      return Array.isArray(value) ? value.join('、') : '';
    case 'json':
      return JSON.stringify(value);
    case 'string':
    case 'text':
    case 'markdown':
      return inert(String(value));
    default:
      return String(value);
  }
}

function parsedJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  try {
    return JSON.parse(String(value));
  } catch {
    return null;
  }
}

/** The related names a cell shows: the ids' display names joined, kept inert and quoted. */
function namesCell(ids: readonly unknown[], names: ReadonlyMap<number, string | null> | undefined): string {
  if (ids.length === 0) return '';
  const nameOf = (id: unknown) => names?.get(id as number) ?? '';
  return csvCell(inert(ids.length === 1 ? nameOf(ids[0]) : ids.map(nameOf).join('、')));
}

const wireIds = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];

/** Ids of a stored relation-list value (JSON), as the wire value would give them. */
function listIds(value: unknown): readonly unknown[] {
  const list = parsedJson(value);
  return Array.isArray(list) ? list : list === null ? [] : [list];
}

// ---- columns -----------------------------------------------------------------------------------

/**
 * How a column's cell is made from the stored value: one `switch` over these in one loop keeps
 * every helper call monomorphic (a closure per column made the call site megamorphic).
 */
const INTEGER = 0; // integer, number, relation id, the row id: never needs quoting
const MONEY = 1;
const TIME = 2;
const BOOLEAN = 3;
const ENUM = 4;
const JSON_TEXT = 5;
const LIST = 6; // enumList, stringList, relationList: parsed, then as the wire value
const TEXT = 7; // string, text, markdown: kept inert
const OTHER = 8;
const NAME = 9; // a relation's name: the formatted cell, remembered per id
const NAMES = 10; // a relation list's names
const WIRE = 11; // a field kept outside the table: from the wire row

/** The kinds a caller needs to tell apart (tests): a relation's name cell, a JSON cell. */
export const CSV_KINDS = { NAME, JSON_TEXT } as const;

export interface CsvCell {
  kind: number;
  /** The stored column read; its position in the batch's columns is `at`. */
  column: string | null;
  at: number;
  field: FieldDef | null;
  /** Relation fields: the field's name. */
  name: string;
  /** Enums: value → label, quoted when it needs to be. */
  labels: Map<unknown, string> | null;
  /** Relation fields: id → the formatted name cell (NAME) or the name (NAMES); null: no such row. */
  names: Map<number, string | null> | null;
  /**
   * Relation fields of a streamed export: the name of an id not in `names` (null: no such row),
   * from the related table read whole or else read alone and kept in `names`. Null where names
   * are loaded per batch instead.
   */
  fill: ((id: number) => string | null) | null;
  /** The cell from a wire row (fields kept elsewhere, and resources that are not a table). */
  fromWire: (row: WireRow, names: ReadonlyMap<string, ReadonlyMap<number, string | null>>) => string;
}

function kindOf(field: FieldDef): number {
  switch (field.type) {
    case 'integer':
    case 'number':
    case 'relation':
      return INTEGER;
    case 'money':
      return MONEY;
    case 'datetime':
      return TIME;
    case 'boolean':
      return BOOLEAN;
    case 'enum':
      return ENUM;
    case 'json':
      return JSON_TEXT;
    case 'enumList':
    case 'stringList':
    case 'relationList':
      return LIST;
    case 'string':
    case 'text':
    case 'markdown':
      return TEXT;
    default:
      return OTHER;
  }
}

function enumLabels(field: FieldDef): Map<unknown, string> | null {
  if (field.type !== 'enum') return null;
  // The first option of a value wins, as `options.find` does.
  const labels = new Map<unknown, string>();
  for (const o of field.options) if (!labels.has(o.value)) labels.set(o.value, csvCell(o.label));
  return labels;
}

/** The header and the cells of a resource's CSV, in order. */
export function csvColumns(def: ResourceDef): { headers: string[]; cells: CsvCell[] } {
  const model = modelOf(def);
  const headers: string[] = [];
  const cells: CsvCell[] = [];
  const add = (header: string, cell: Partial<CsvCell> & Pick<CsvCell, 'kind' | 'fromWire'>) => {
    headers.push(header);
    cells.push({
      column: null,
      at: -1,
      field: null,
      name: '',
      labels: null,
      names: null,
      fill: null,
      ...cell,
    });
  };
  add('ID', { kind: INTEGER, column: 'id', fromWire: (row) => csvCell(String(row.id)) });
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.writeOnly) continue;
    const column = model.byName.get(name)?.column ?? null;
    const fromWire = (row: WireRow) => csvCell(cellText(field, row[name]));
    const stored = (kind: number) =>
      column
        ? { kind, column, field, name, labels: enumLabels(field), fromWire }
        : { kind: WIRE, field, name, fromWire };
    if (field.type === 'relation' || field.type === 'relationList') {
      add(`${field.label}ID`, stored(kindOf(field)));
      add(field.label, {
        ...stored(field.type === 'relation' ? NAME : NAMES),
        fromWire: (row, names) => namesCell(wireIds(row[name]), names.get(name)),
      });
      continue;
    }
    add(field.label, stored(kindOf(field)));
  }
  add('创建时间', { kind: TIME, column: 'created_at', fromWire: (row) => chinaTime(row.createdAt) });
  add('更新时间', { kind: TIME, column: 'updated_at', fromWire: (row) => chinaTime(row.updatedAt) });
  return { headers, cells };
}

/**
 * The cells of one row from its stored values (`wire` only for fields kept outside the table).
 * JSON cells are left unquoted: see `needsQuotes`.
 */
export function csvRow(
  out: string[],
  cells: readonly CsvCell[],
  values: readonly unknown[],
  wire?: WireRow,
  wireNames: ReadonlyMap<string, ReadonlyMap<number, string | null>> = new Map(),
): void {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as CsvCell;
    const x = cell.at < 0 ? undefined : values[cell.at];
    let text: string;
    switch (cell.kind) {
      case INTEGER:
        text = x === null || x === undefined ? '' : String(Number(x));
        break;
      case MONEY:
        text = x === null || x === undefined ? '' : yuanText(Number(x));
        break;
      case TIME:
        text = chinaTimeOfStored(x);
        break;
      case BOOLEAN:
        text =
          x === null || x === undefined ? '' : x === 1 || x === true || x === '1' || x === 1n ? '是' : '否';
        break;
      case ENUM:
        text =
          x === null || x === undefined
            ? ''
            : ((cell.labels as Map<unknown, string>).get(x) ?? csvCell(String(x)));
        break;
      case JSON_TEXT:
        // Quoted by the writer (ChunkWriter.writeQuoted) when it has a quote, comma or line break.
        text = storedJsonText(x);
        break;
      case LIST:
        text = csvCell(cellText(cell.field as FieldDef, parsedJson(x)));
        break;
      case TEXT:
        text = x === null || x === undefined ? '' : csvCell(inert(String(x)));
        break;
      case NAME: {
        if (x === null || x === undefined) {
          text = '';
          break;
        }
        const id = Number(x);
        const name = cell.names?.get(id);
        text = (name === undefined && cell.fill ? cell.fill(id) : name) ?? '';
        break;
      }
      case NAMES: {
        const ids = listIds(x);
        if (cell.fill)
          for (const id of ids) if (typeof id === 'number' && !cell.names?.has(id)) cell.fill(id);
        text = namesCell(ids, cell.names ?? undefined);
        break;
      }
      case WIRE:
        text = wire ? cell.fromWire(wire, wireNames) : '';
        break;
      default:
        text = x === null || x === undefined ? '' : csvCell(String(x));
    }
    out[i] = text;
  }
}

/**
 * What reading and formatting an export needs of the engine: compiling SQL, resolving related
 * resources, hooks. The engine is one; the export worker (export-worker.ts) makes its own.
 */
export interface ExportSource {
  db: AnyDb;
  dialect: DialectName;
  resource(name: string): ResourceDef | undefined;
  extensions: EngineExtensions;
}

// ---- related names -----------------------------------------------------------------------------

/**
 * Keeps, per relation column of the CSV, the names of the ids seen so far in the export: a
 * relation's formatted cell (what a NAME cell shows), a relation list's raw names. Names are read
 * for a whole batch at once (`load`), or — when the export streams its rows and `lookups` is a
 * connection other than the one streaming — one id at a time as a row first needs it (`fill`).
 */
class ExportNames {
  /** Raw names by field, for the cells made from wire rows (relations kept outside the table). */
  readonly wire = new Map<string, Map<number, string | null>>();

  constructor(
    private readonly engine: ExportSource,
    private readonly reader: SqliteReader | null,
    private readonly cells: readonly CsvCell[],
    lookups: SqliteReader | null,
  ) {
    for (const cell of cells) {
      if (cell.kind !== NAME && cell.kind !== NAMES && cell.kind !== WIRE) continue;
      const names: Map<number, string | null> =
        (cell.kind === WIRE ? this.wire.get(cell.name) : undefined) ?? new Map();
      cell.names = names;
      if (cell.kind === WIRE) this.wire.set(cell.name, names);
      const field = cell.field;
      if (!lookups || cell.kind === WIRE || (field?.type !== 'relation' && field?.type !== 'relationList'))
        continue;
      const target = engine.resource(field.resource);
      const read = target ? nameReader(target, lookups) : { one: () => null, all: () => null };
      const keep = (name: string | null) => (cell.kind === NAME ? csvCell(inert(name ?? '')) : name);
      let lookedUp = 0;
      let whole: WholeNames | null = null;
      cell.fill = (id) => {
        if (++lookedUp === WHOLE_TABLE_AFTER && cell.kind === NAME) {
          const all = read.all(NAME_CACHE);
          whole = all && WholeNames.of(all, (name) => keep(name) as string);
          // The names read one by one are in the whole table too.
          if (whole) names.clear();
        }
        const known = whole?.get(id);
        if (known !== undefined) return known;
        // Not in the table (a row added since it was read, or none was read): looked up alone.
        if (names.size >= NAME_CACHE) names.clear();
        const kept = keep(read.one(id));
        names.set(id, kept);
        return kept;
      };
    }
  }

  /** Makes sure every id the batch refers to has its entry. */
  async load(batch: Batch): Promise<void> {
    for (const cell of this.cells) {
      const field = cell.field;
      if (!cell.names || !field || (field.type !== 'relation' && field.type !== 'relationList')) continue;
      const known = cell.names;
      // Room for this batch first, so nothing it needs is dropped after it was found.
      if (known.size + batch.values.length * (field.type === 'relation' ? 1 : 10) > NAME_CACHE) known.clear();
      const missing = new Set<number>();
      const note = (id: unknown) => {
        if (typeof id === 'number' && !known.has(id)) missing.add(id);
      };
      if (cell.kind === WIRE) {
        for (const row of batch.wire ?? []) for (const id of wireIds(row[cell.name])) note(id);
      } else if (cell.at >= 0) {
        for (const row of batch.values) {
          const x = row[cell.at];
          if (x === null || x === undefined) continue;
          if (cell.kind === NAME) note(Number(x));
          else for (const id of listIds(x)) note(id);
        }
      }
      if (missing.size === 0) continue;
      const target = this.engine.resource(field.resource);
      const found = target
        ? await displayNames(this.engine.db, target, [...missing], { reader: this.reader })
        : new Map<number, string>();
      for (const id of missing) {
        const name = found.get(id);
        if (cell.kind === NAME) known.set(id, csvCell(inert(name ?? '')));
        else known.set(id, name ?? null);
      }
    }
  }
}

// ---- batches -----------------------------------------------------------------------------------

export interface Batch {
  /** Stored values in the order of `columns`. */
  columns: readonly string[];
  values: unknown[][];
  /** Wire rows, when the format or the resource needs them. */
  wire: WireRow[] | null;
}

type Raw = Record<string, string | string[] | undefined>;

/** Reads the matching rows batch by batch, in the list's order, with keyset continuation. */
export class BatchReader {
  /** The order's values of the last row read: the next batch starts after it. */
  after: unknown[] | null = null;
  private done = false;
  private readonly keys: OrderKey[];

  constructor(
    private readonly engine: ExportSource,
    private readonly reader: SqliteReader | null,
    private readonly def: ResourceDef,
    private readonly query: ListQuery,
    private readonly needWire: boolean,
  ) {
    this.keys = orderKeys(modelOf(def), query);
  }

  /** Rows up to and including this position only (a `boundedOrder`); null: to the end. */
  until: unknown[] | null = null;

  /** Reads from just after `after` (null: the first row) to `until` from now on. */
  range(after: unknown[] | null, until: unknown[] | null): this {
    this.after = after;
    this.until = until;
    this.done = false;
    return this;
  }

  private compiled(): CompiledQuery {
    return selectPage(this.engine.db, this.engine.dialect, this.def, {
      query: this.query,
      after: this.after,
      until: this.until,
      limit: EXPORT_BATCH,
      offset: 0,
    }).compile();
  }

  /** Whether rows can be streamed one by one (`each`): on SQLite's reader, without wire rows. */
  get streams(): boolean {
    return this.reader !== null && !this.needWire;
  }

  /**
   * The next batch's rows one at a time, as SQLite steps to them (SqliteReader.each), never
   * gathered: answers how many there were, 0 at the end. Only where `streams`.
   */
  each(onRow: (values: unknown[], columns: readonly string[]) => void): number {
    if (this.done || !this.reader) return 0;
    const compiled = this.compiled();
    let last: unknown[] | null = null;
    let lastColumns: readonly string[] = [];
    const count = this.reader.each(compiled.sql, compiled.parameters, (values, columns) => {
      onRow(values, columns);
      last = values;
      lastColumns = columns;
    });
    if (count < EXPORT_BATCH) this.done = true;
    if (last) this.after = this.positionOf(last, lastColumns);
    return count;
  }

  /** The order's values of a row: where the next batch starts. */
  private positionOf(row: readonly unknown[], columns: readonly string[]): unknown[] {
    return this.keys.map((k) => {
      const v = row[columns.indexOf(k.column)];
      return typeof v === 'bigint' ? Number(v) : (v ?? null);
    });
  }

  async next(): Promise<Batch | null> {
    if (this.done) return null;
    const compiled = this.compiled();
    let columns: readonly string[];
    let values: unknown[][];
    if (this.reader) {
      ({ columns, rows: values } = this.reader.arrays(compiled.sql, compiled.parameters));
    } else {
      const rows = (await this.engine.db.executeQuery(compiled)).rows as Record<string, unknown>[];
      columns = rows.length > 0 ? Object.keys(rows[0] as object) : [];
      values = rows.map((row) => columns.map((c) => row[c]));
    }
    if (values.length < EXPORT_BATCH) this.done = true;
    if (values.length === 0) return null;
    this.after = this.positionOf(values[values.length - 1] as unknown[], columns);
    let wire: WireRow[] | null = null;
    if (this.needWire) {
      wire = values.map(arrayRowReader(modelOf(this.def), columns));
      await this.engine.extensions.hooksOf(this.def.name).loadVirtual?.(this.engine.db, wire);
    }
    return { columns, values, wire };
  }
}

// ---- formats -----------------------------------------------------------------------------------

/** The next chunk of the export, or null at the end. */
type Producer = () => Promise<Buffer | string | null>;

/** Lines written into one slab of the export's pool per batch, a larger slab when a batch needs more. */
class ChunkWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(private readonly pool: ChunkPool) {
    this.buffer = pool.take();
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const bigger = this.pool.take(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.pool.release(this.buffer);
    this.buffer = bigger;
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.room(text.length * 3);
    this.length += this.buffer.write(text, this.length);
  }

  crlf(): void {
    this.room(2);
    this.buffer[this.length++] = 0x0d;
    this.buffer[this.length++] = 0x0a;
  }

  /**
   * `csvCell(text)` of a text that needs quoting, written without making the doubled string:
   * the text is encoded, then its quotes are doubled in place from the end (0x22 never occurs
   * inside a multi-byte UTF-8 sequence). A JSON cell is mostly quotes; `replace` cost more than
   * everything else of an order's row together and made ~1 KB of garbage per row.
   */
  writeQuoted(text: string): void {
    this.room(text.length * 6 + 2);
    const buffer = this.buffer;
    buffer[this.length++] = 0x22;
    const start = this.length;
    const end = start + buffer.write(text, start);
    let quotes = 0;
    for (let i = start; i < end; i++) if (buffer[i] === 0x22) quotes++;
    const grown = end + quotes;
    let from = end - 1;
    let to = grown - 1;
    while (quotes > 0) {
      const byte = buffer[from--] as number;
      buffer[to--] = byte;
      if (byte === 0x22) {
        buffer[to--] = 0x22;
        quotes--;
      }
    }
    buffer[grown] = 0x22;
    this.length = grown + 1;
  }

  /** The chunk so far (a view of its slab, which stays the chunk's); the writer takes a new slab. */
  take(): Buffer {
    const chunk = this.buffer.subarray(0, this.length);
    this.buffer = this.pool.take();
    this.length = 0;
    return chunk;
  }
}

function csvProducer(
  engine: ResourceEngine,
  reader: SqliteReader | null,
  /** A connection for related names while `reader` streams rows (see CsvFormatter). */
  lookups: SqliteReader | null,
  pool: ChunkPool,
  def: ResourceDef,
  raw: Raw,
  /** What to stop when the export ends or is abandoned (its worker threads). */
  closers: (() => void)[],
): Producer {
  const { headers, cells } = csvColumns(def);
  const header = `${BOM}${headers.map(csvCell).join(',')}\r\n`;
  const store = engine.extensions.hooksOf(def.name).store;
  const model = modelOf(def);
  const query = engine.parseQuery(def, raw);
  let headerSent = false;

  if (store) {
    let sent = false;
    return async () => {
      if (!headerSent) {
        headerSent = true;
        return header;
      }
      if (sent) return null;
      sent = true;
      const rows = await store.list(engine.db);
      const names = new Map<string, Map<number, string | null>>();
      for (const fs of model.relations) {
        const field = fs.field;
        const target =
          field.type === 'relation' || field.type === 'relationList' ? engine.resource(field.resource) : null;
        const ids = new Set<number>();
        for (const row of rows)
          for (const id of wireIds(row[fs.name])) if (typeof id === 'number') ids.add(id);
        names.set(
          fs.name,
          target && ids.size > 0 ? await displayNames(engine.db, target, [...ids]) : new Map(),
        );
      }
      return rows.map((row) => `${cells.map((c) => c.fromWire(row, names)).join(',')}\r\n`).join('');
    };
  }

  // Fields kept outside the table (users.roles) are read from wire rows.
  const batches = new BatchReader(
    engine,
    reader,
    def,
    query,
    cells.some((c) => c.kind === WIRE),
  );
  const formatter = new CsvFormatter(engine, reader, cells, lookups, pool);
  let parallel: ParallelExport | null = null;
  let first = true;
  return async () => {
    if (!headerSent) {
      headerSent = true;
      return header;
    }
    if (parallel) return parallel.next();
    const next = await formatter.chunk(batches);
    if (!next) return null;
    // A first full batch means a large export: the rest goes to worker threads where it can.
    if (first && next.rows === EXPORT_BATCH && batches.after) {
      parallel = parallelCsvExport(engine, reader, pool, def, query, batches.after, async (after, until) =>
        formatRun(formatter, batches.range(after, until)),
      );
      if (parallel) closers.push(parallel.close);
    }
    first = false;
    return next.chunk;
  };
}

/** A chunk of CSV and the number of rows in it. */
export interface CsvChunk {
  chunk: Buffer;
  rows: number;
}

/**
 * Turns batches into CSV chunks: one chunk per batch, the related names looked up and kept for
 * the whole export. The `cells` are its own (`csvColumns` makes new ones each time). Given
 * `lookups` (a read connection other than `reader`), rows that can be streamed are formatted as
 * they are read (`chunk`), each related name read when a row first needs it.
 */
export class CsvFormatter {
  private readonly names: ExportNames;
  private readonly writer: ChunkWriter;
  private readonly row: string[];
  /** Positions of the JSON cells, written in pieces around the rest of the row (see `writeRow`). */
  private readonly jsonAt: number[];
  private readonly json: string[];
  private resolvedFor: readonly string[] | null = null;

  constructor(
    source: ExportSource,
    reader: SqliteReader | null,
    private readonly cells: readonly CsvCell[],
    private readonly lookups: SqliteReader | null,
    pool: ChunkPool,
  ) {
    this.names = new ExportNames(source, reader, cells, lookups);
    this.writer = new ChunkWriter(pool);
    this.row = new Array(cells.length);
    this.jsonAt = cells.flatMap((cell, i) => (cell.kind === JSON_TEXT ? [i] : []));
    this.json = new Array(this.jsonAt.length);
  }

  /** The next batch of `batches` as one chunk, or null at the end. */
  async chunk(batches: BatchReader): Promise<CsvChunk | null> {
    if (this.lookups && batches.streams) {
      const rows = batches.each(this.writeValues);
      return rows === 0 ? null : { chunk: this.writer.take(), rows };
    }
    const batch = await batches.next();
    return batch ? { chunk: await this.format(batch), rows: batch.values.length } : null;
  }

  /** One streamed row, written as soon as it is read (its names filled as needed). */
  private readonly writeValues = (values: unknown[], columns: readonly string[]): void => {
    this.resolve(columns);
    csvRow(this.row, this.cells, values, undefined, this.names.wire);
    this.writeRow();
    this.writer.crlf();
  };

  /** Where each cell's column is among the rows' columns. */
  private resolve(columns: readonly string[]): void {
    if (this.resolvedFor === columns) return;
    this.resolvedFor = columns;
    for (const cell of this.cells) cell.at = cell.column === null ? -1 : columns.indexOf(cell.column);
  }

  async format(batch: Batch): Promise<Buffer> {
    this.resolve(batch.columns);
    await this.names.load(batch);
    for (let r = 0; r < batch.values.length; r++) {
      csvRow(this.row, this.cells, batch.values[r] as unknown[], batch.wire?.[r], this.names.wire);
      this.writeRow();
      this.writer.crlf();
    }
    return this.writer.take();
  }

  /**
   * A row is one join of its cells, written in pieces around its JSON cells (left empty in the
   * join), which `writeQuoted` writes with their quotes doubled.
   */
  private writeRow(): void {
    const { row, jsonAt, json, writer } = this;
    if (jsonAt.length === 0) {
      writer.write(row.join(','));
      return;
    }
    for (let k = 0; k < jsonAt.length; k++) {
      json[k] = row[jsonAt[k] as number] as string;
      row[jsonAt[k] as number] = '';
    }
    const line = row.join(',');
    let from = 0;
    let offset = 0;
    let cell = 0;
    for (let k = 0; k < jsonAt.length; k++) {
      const at = jsonAt[k] as number;
      // Where cell `at` starts in the line: the cells before it and a comma after each.
      for (; cell < at; cell++) offset += (row[cell] as string).length + 1;
      if (offset > from) writer.write(line.slice(from, offset));
      const text = json[k] as string;
      if (needsQuotes(text)) writer.writeQuoted(text);
      else writer.write(text);
      from = offset;
    }
    if (from < line.length) writer.write(line.slice(from));
  }
}

function ndjsonProducer(
  engine: ResourceEngine,
  reader: SqliteReader | null,
  pool: ChunkPool,
  def: ResourceDef,
  raw: Raw,
): Producer {
  const store = engine.extensions.hooksOf(def.name).store;
  const query = engine.parseQuery(def, raw);
  if (store) {
    let sent = false;
    return async () => {
      if (sent) return null;
      sent = true;
      const rows = await store.list(engine.db);
      return rows.length > 0 ? `${rows.map((row) => JSON.stringify(row)).join('\n')}\n` : '';
    };
  }
  const batches = new BatchReader(engine, reader, def, query, true);
  const writer = new ChunkWriter(pool);
  return async () => {
    const batch = await batches.next();
    if (!batch) return null;
    for (const row of batch.wire as WireRow[]) writer.write(`${JSON.stringify(row)}\n`);
    return writer.take();
  };
}

/** Every row `batches` has left, as one chunk: a run of a parallel export (export-parallel.ts). */
export async function formatRun(formatter: CsvFormatter, batches: BatchReader): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let next = await formatter.chunk(batches); next; next = await formatter.chunk(batches))
    parts.push(next.chunk);
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/** Pushed chunks remembered for the pool at most; older ones are left to the garbage collector. */
const MAX_UNSENT = 16;

/**
 * Makes one chunk per turn of the event loop, only while the consumer wants more: `_read` is
 * called again by the stream once the socket has taken what was pushed. A chunk pushed goes back
 * to the pool once the destination has written it: of the bytes pushed, those still in this
 * stream and the `unsent()` bytes of the destination are not written yet; every byte before them
 * is.
 */
class ExportReadable extends Readable {
  private reading = false;
  /** Chunks pushed and maybe not yet written, each with the count of bytes pushed up to its end. */
  private readonly pushed: { chunk: Buffer; end: number }[] = [];
  private pushedBytes = 0;

  constructor(
    private readonly produce: Producer,
    private first: Buffer | string | null,
    private readonly onClose: () => void,
    private readonly pool: ChunkPool,
    private readonly unsent: () => number,
  ) {
    super();
  }

  /** Gives the pool back the slabs of the chunks the destination has written. */
  private releaseSent(): void {
    const written = this.pushedBytes - this.readableLength - this.unsent();
    while (this.pushed.length > 0 && (this.pushed[0] as { end: number }).end <= written)
      this.pool.release((this.pushed.shift() as { chunk: Buffer }).chunk);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.onClose();
    callback(error);
  }

  override _read(): void {
    if (this.reading) return;
    this.reading = true;
    this.releaseSent();
    if (this.first !== null) {
      const first = this.first;
      this.first = null;
      this.deliver(first);
      return;
    }
    setImmediate(() => {
      this.produce().then(
        (chunk) => (chunk === null ? this.push(null) : this.deliver(chunk)),
        (error: unknown) => this.destroy(error as Error),
      );
    });
  }

  private deliver(chunk: Buffer | string): void {
    this.reading = false;
    // An empty chunk (a resource store with no rows) asks for the next one straight away.
    if (chunk.length === 0) {
      this._read();
      return;
    }
    this.pushedBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (typeof chunk !== 'string') {
      this.pushed.push({ chunk, end: this.pushedBytes });
      if (this.pushed.length > MAX_UNSENT) this.pushed.shift();
    }
    if (this.push(chunk)) this._read();
  }
}

/**
 * The export as a stream. The query is parsed and the first rows read before this resolves, so
 * a bad query fails as a normal 422 answer instead of a truncated file.
 */
export async function exportStream(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Raw,
  format: ExportFormat,
  /**
   * How many bytes given to the destination it has not written yet, at most — for an HTTP
   * response `res.writableLength` (what its socket still holds, framing included). Used to take
   * chunks' slabs back; where it is unknown, none is taken back (each chunk keeps its own).
   */
  unsent: () => number = () => Number.POSITIVE_INFINITY,
): Promise<Readable> {
  // SQLite: the export reads on connections of its own (rows, and the names a CSV shows), closed
  // with the stream; neither pushes the lists' pages out of their cache or maps the file.
  const reader = engine.reader?.fork(EXPORT_CACHE_KIB) ?? null;
  const lookups = format === 'csv' ? (engine.reader?.fork(NAMES_CACHE_KIB) ?? null) : null;
  const pool = new ChunkPool();
  const closers: (() => void)[] = [];
  const close = () => {
    for (const stop of closers) stop();
    reader?.close();
    lookups?.close();
  };
  try {
    const produce =
      format === 'csv'
        ? csvProducer(engine, reader, lookups, pool, def, raw, closers)
        : ndjsonProducer(engine, reader, pool, def, raw);
    let first = await produce();
    // CSV's first chunk is the header alone: read the first batch too, so a failing query fails here.
    if (format === 'csv' && first !== null) {
      const rows = await produce();
      if (rows === null) return new ExportReadable(async () => null, first, close, pool, unsent);
      first = Buffer.concat([Buffer.from(first), Buffer.from(rows)]);
      if (typeof rows !== 'string') pool.release(rows);
    }
    return new ExportReadable(produce, first, close, pool, unsent);
  } catch (error) {
    close();
    throw error;
  }
}

export function exportFileName(def: ResourceDef, format: ExportFormat): string {
  return `${def.title}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}

/** `attachment; filename="export.csv"; filename*=UTF-8''订单.csv` (RFC 6266 / 5987). */
export function contentDisposition(fileName: string, format: ExportFormat): string {
  return `attachment; filename="export.${format}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
