/**
 * The columns of a resource's CSV and how each cell is made from the stored value: one kind per
 * column, chosen once per export, and one `switch` over the kinds per row.
 */
import { type FieldDef, type ResourceDef, readsAsLines } from '@wanxiang/core';
import { modelOf, type WireRow } from '../storage.js';
import { storedJsonText } from './canonical-json.js';
import { cellText, chinaTime, namesText } from './cell-text.js';
import { csvCell, inert } from './csv-text.js';
import { chinaTimeOfStored, yuanText } from './stored-text.js';

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

export const wireIds = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];

/**
 * Ids of a stored relation-list value (JSON). A stored value that is not a list (the engine never
 * writes one) names nothing, as core's fieldText reads a relation list that is not a list.
 */
export function listIds(value: unknown): readonly unknown[] {
  const list = parsedJson(value);
  return Array.isArray(list) ? list : [];
}

/**
 * How a column's cell is made from the stored value: one `switch` over these in one loop keeps
 * every helper call monomorphic (a closure per column made the call site megamorphic).
 */
const INTEGER = 0; // integer, number, relation id, the row id: never needs quoting
const MONEY = 1;
const TIME = 2;
const BOOLEAN = 3;
const ENUM = 4;
export const JSON_TEXT = 5;
const LIST = 6; // enumList, stringList, relationList: parsed, then as the wire value
const TEXT = 7; // string, text, markdown: kept inert
const OTHER = 8;
export const NAME = 9; // a relation's name: the formatted cell, remembered per id
export const NAMES = 10; // a relation list's names
export const WIRE = 11; // a field kept outside the table: from the wire row
const LINES = 12; // JSON that reads as goods lines (order items, refund items): parsed, then the rule

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
      return readsAsLines(field) ? LINES : JSON_TEXT;
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
        fromWire: (row, names) => csvCell(namesText(field, row[name], names.get(name))),
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
      case LINES:
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
