/**
 * `GET /api/admin/R/export?format=csv|ndjson&…`: every row matching the list's filters, streamed
 * with constant memory. Rows are read in keyset batches (no OFFSET) and handed to a Node stream
 * only as fast as the client takes them (Readable.from pulls the next batch when the socket has
 * drained); between batches the loop yields to the event loop, so a million-row export never
 * holds up other requests for longer than one batch.
 *
 * CSV is for people in Excel: UTF-8 with a BOM, a header of Chinese labels, enum labels instead
 * of values, money in yuan with two decimals, times as `YYYY-MM-DD HH:mm` in China time, related
 * rows as id and name, and text that a spreadsheet would run as a formula prefixed with `'`.
 * NDJSON is for programs: one wire row per line, exactly as the list answers it.
 */
import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FieldDef, ResourceDef } from '@wanxiang/core';
import type { ResourceEngine } from './engine.js';
import { keyValues, orderKeys, selectPage } from './query.js';
import { displayNames } from './relations.js';
import { type DbRow, modelOf, type WireRow } from './storage.js';

export const EXPORT_BATCH = 1000;
const BOM = '\uFEFF';
const CHINA_OFFSET_MS = 8 * 3_600_000; // Asia/Shanghai has no daylight saving time.

export type ExportFormat = 'csv' | 'ndjson';

export function chinaTime(iso: unknown): string {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return '';
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Text a spreadsheet would evaluate (=, +, -, @) is kept as text. */
function inert(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function optionLabel(field: FieldDef, value: unknown): string {
  if (field.type !== 'enum' && field.type !== 'enumList') return String(value);
  return field.options.find((o) => o.value === value)?.label ?? String(value);
}

function cellText(field: FieldDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'money':
      return (Number(value) / 100).toFixed(2);
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

interface Column {
  header: string;
  cell(row: WireRow, names: Map<string, Map<number, string>>): string;
}

function csvColumns(def: ResourceDef): Column[] {
  const columns: Column[] = [{ header: 'ID', cell: (row) => String(row.id) }];
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.writeOnly) continue;
    if (field.type === 'relation' || field.type === 'relationList') {
      columns.push({ header: `${field.label}ID`, cell: (row) => cellText(field, row[name]) });
      columns.push({
        header: field.label,
        cell: (row, names) => {
          const ids = Array.isArray(row[name])
            ? (row[name] as number[])
            : row[name] == null
              ? []
              : [row[name] as number];
          return inert(ids.map((id) => names.get(name)?.get(id) ?? '').join('、'));
        },
      });
      continue;
    }
    columns.push({ header: field.label, cell: (row) => cellText(field, row[name]) });
  }
  columns.push({ header: '创建时间', cell: (row) => chinaTime(row.createdAt) });
  columns.push({ header: '更新时间', cell: (row) => chinaTime(row.updatedAt) });
  return columns;
}

async function batchNames(engine: ResourceEngine, def: ResourceDef, rows: readonly WireRow[]) {
  const names = new Map<string, Map<number, string>>();
  for (const fs of modelOf(def).relations) {
    const field = fs.field;
    if (field.type !== 'relation' && field.type !== 'relationList') continue;
    const target = engine.resource(field.resource);
    const ids = new Set<number>();
    for (const row of rows) {
      const v = row[fs.name];
      if (typeof v === 'number') ids.add(v);
      else if (Array.isArray(v)) for (const id of v) if (typeof id === 'number') ids.add(id);
    }
    names.set(fs.name, target && ids.size > 0 ? await displayNames(engine.db, target, [...ids]) : new Map());
  }
  return names;
}

/** The rows of the export, batch by batch, as wire rows. */
async function* batches(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Record<string, string | string[] | undefined>,
) {
  const query = engine.parseQuery(def, raw);
  const store = engine.extensions.hooksOf(def.name).store;
  if (store) {
    yield await store.list(engine.db);
    return;
  }
  const keys = orderKeys(modelOf(def), query);
  let after: unknown[] | null = null;
  for (;;) {
    const dbRows = (await selectPage(engine.db, engine.dialect, def, {
      query,
      after,
      limit: EXPORT_BATCH,
      offset: 0,
    }).execute()) as DbRow[];
    if (dbRows.length === 0) return;
    yield await engine.toWire(def, dbRows);
    if (dbRows.length < EXPORT_BATCH) return;
    after = keyValues(keys, dbRows.at(-1) as DbRow);
    await yieldToEventLoop();
  }
}

async function* csvChunks(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Record<string, string | string[] | undefined>,
) {
  const columns = csvColumns(def);
  const rows = batches(engine, def, raw);
  // Parse before the header goes out, so a bad filter is a 422 and not a broken download.
  const first = await rows.next();
  yield `${BOM}${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
  if (first.done) return;
  for (let batch: WireRow[] | undefined = first.value; batch; ) {
    const names = await batchNames(engine, def, batch);
    yield batch.map((row) => `${columns.map((c) => csvCell(c.cell(row, names))).join(',')}\r\n`).join('');
    const next = await rows.next();
    batch = next.done ? undefined : next.value;
  }
}

async function* ndjsonChunks(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Record<string, string | string[] | undefined>,
) {
  for await (const batch of batches(engine, def, raw)) {
    if (batch.length > 0) yield `${batch.map((row) => JSON.stringify(row)).join('\n')}\n`;
  }
}

/**
 * The export as a stream. The first chunk is computed before this resolves, so a bad query
 * fails as a normal 422 answer instead of a truncated file.
 */
export async function exportStream(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Record<string, string | string[] | undefined>,
  format: ExportFormat,
): Promise<Readable> {
  const chunks = format === 'csv' ? csvChunks(engine, def, raw) : ndjsonChunks(engine, def, raw);
  const first = await chunks.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* chunks;
  }
  return Readable.from(all(), { objectMode: false });
}

export function exportFileName(def: ResourceDef, format: ExportFormat): string {
  return `${def.title}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}

/** `attachment; filename="export.csv"; filename*=UTF-8''订单.csv` (RFC 6266 / 5987). */
export function contentDisposition(fileName: string, format: ExportFormat): string {
  return `attachment; filename="export.${format}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
