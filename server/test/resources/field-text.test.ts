/**
 * The CSV export's fast path (cells made from stored values: arithmetic for money and China time,
 * enum labels from a map, JSON copied when already canonical) against the one rule of how a value
 * reads, core's `fieldText` for a sheet: for every field type the registry uses, edge values
 * included, the cell of the fast path is the cell of the rule (quoted as CSV, text a spreadsheet
 * would run kept inert). A new field type in the registry fails here until it has edge values.
 */
import {
  type FieldDef,
  type FieldType,
  fieldText,
  getResource,
  RESOURCES,
  type ResourceDef,
  readsAsLines,
} from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { CSV_KINDS, csvColumns, csvRow } from '../../src/resources/export/csv-columns.js';
import { csvCell, inert } from '../../src/resources/export/csv-text.js';
import { type DbRow, modelOf, toWireRow } from '../../src/resources/storage.js';

const SHEET = { for: 'sheet' } as const;
const HOUR = 3_600_000;
const MAX_DATE_MS = 8.64e15;
/** Related names: one plain, one a spreadsheet would run, one to quote, one with no name; 9: no row. */
const NAMES = new Map<unknown, string | null>([
  [1, '朝阳门店'],
  [2, '=HYPERLINK("x")'],
  [3, 'a,"b"'],
  [4, null],
]);
const FREE_TEXT = new Set<FieldType>(['string', 'text', 'markdown', 'stringList']);

const TEXTS = [
  '',
  '朝阳门店😀',
  '=SUM(A1)',
  '+86 138',
  '-',
  '@me',
  'a,b',
  'say "hi"',
  'two\nlines',
  '\u2028',
  '110***********1234',
  '******',
];

/** Stored values (as the database gives them) of each type, the awkward ones included. */
function edges(field: FieldDef): unknown[] {
  const common = [null];
  switch (field.type) {
    case 'money':
      return [...common, 0, -0, 1, -1, -50, 99, 100, 101, -12_345, 123_456_789, 1e15 - 1, 2 ** 53];
    case 'integer':
    case 'number':
      return [...common, 0, -1, 7, 1.5, -3.25, 1e21];
    case 'datetime':
      return [
        ...common,
        Date.UTC(2024, 1, 29, 15, 59, 59, 999), // 23:59 in China
        Date.UTC(2024, 1, 29, 16, 0), // midnight in China: the next day
        Date.UTC(2023, 11, 31, 16, 0), // a new year in China, still the old one in UTC
        Date.UTC(1990, 6, 1, 15, 30), // China's summer time of 1986–1991: not applied
        0,
        -1,
        -8 * HOUR,
        -8 * HOUR - 1,
        MAX_DATE_MS - 8 * HOUR,
        MAX_DATE_MS - 8 * HOUR + 1,
        -MAX_DATE_MS,
        253_402_300_800_000, // year 10000
      ];
    case 'boolean':
      return [...common, 0, 1];
    case 'date':
      return [...common, '2024-01-01', '2024-02-29'];
    case 'enum':
      return [...common, ...field.options.map((o) => o.value), 'unknown', '=x', 'a,b'];
    case 'enumList':
      return [
        ...common,
        '[]',
        'null',
        JSON.stringify(field.options.map((o) => o.value)),
        JSON.stringify([field.options[0]?.value, 'unknown']),
      ];
    case 'stringList':
      return [...common, '[]', 'null', '["甲"]', '["=x","a,b"]', '["😀","say \\"hi\\""]', 'not json'];
    case 'relation':
      return [...common, 1, 2, 3, 4, 9];
    case 'relationList':
      return [...common, '[]', 'null', '[1]', '[1,2,3,4,9]', '[9]'];
    case 'json':
      return [
        ...common,
        '{}',
        '[]',
        '{"a":"中"}',
        '[{"goodsId":1,"name":"宫保鸡丁","qty":2}]',
        '{"a": 1}',
        '"=x"',
        'null',
        '0',
        '""',
        'not json',
      ];
    case 'string':
    case 'text':
    case 'markdown':
    case 'image':
    case 'file':
      return [...common, ...TEXTS, '/api/files/1', 'https://example.com/a.png'];
    default:
      return [];
  }
}

interface Sample {
  def: ResourceDef;
  name: string;
  field: FieldDef;
}

/** One stored field of each type the registry's tables hold. */
function samplesByType(): Map<FieldType, Sample> {
  const found = new Map<FieldType, Sample>();
  for (const def of RESOURCES) {
    const model = modelOf(def);
    if (!model.hasTable) continue;
    for (const [name, field] of Object.entries(def.fields)) {
      if (field.writeOnly || !model.byName.get(name)?.column || found.has(field.type)) continue;
      found.set(field.type, { def, name, field });
    }
  }
  return found;
}

/** The fast path's cells of one row whose only stored value is `value` in `name`'s column. */
function fastCells(def: ResourceDef, name: string | null, value: unknown, stamp: unknown = 0) {
  const model = modelOf(def);
  const columns = ['id', 'created_at', 'updated_at', ...model.stored.map((fs) => fs.column as string)];
  const column = name === null ? null : model.byName.get(name)?.column;
  const values = columns.map((c) =>
    c === 'id' ? 1 : c === 'created_at' || c === 'updated_at' ? stamp : c === column ? value : null,
  );
  const { cells } = csvColumns(def);
  for (const cell of cells) {
    cell.at = cell.column === null ? -1 : columns.indexOf(cell.column);
    if (cell.kind === CSV_KINDS.NAME)
      cell.names = new Map([...NAMES].map(([id, n]) => [id as number, csvCell(inert(n ?? ''))]));
    else if (cell.names !== undefined && cell.field?.type === 'relationList')
      cell.names = NAMES as Map<number, string | null>;
  }
  const out: string[] = new Array(cells.length);
  csvRow(out, cells, values);
  const row: DbRow = Object.fromEntries(columns.map((c, i) => [c, values[i]]));
  const text = (i: number) => {
    const cell = cells[i];
    // JSON cells are quoted by the chunk writer, not by csvRow.
    return cell?.kind === CSV_KINDS.JSON_TEXT ? csvCell(out[i] as string) : (out[i] as string);
  };
  return { cells, text, wire: toWireRow(model, row) };
}

/** The rule's cell: core's text for a sheet, as a CSV cell. */
function ruleCell(field: FieldDef, wire: unknown, relations?: Map<unknown, string | null>): string {
  const text = fieldText(field, wire, relations ? { ...SHEET, relations } : SHEET);
  // Goods lines start with a goods name: the user's own text, kept inert like free text.
  return csvCell(FREE_TEXT.has(field.type) || readsAsLines(field) || relations ? inert(text) : text);
}

describe('the CSV fast path follows core fieldText', () => {
  const samples = samplesByType();

  it('has edge values for every field type of the registry', () => {
    expect(samples.size).toBeGreaterThan(10);
    for (const [type, { field }] of samples) expect(edges(field).length, type).toBeGreaterThan(1);
  });

  for (const [type, { def, name, field }] of samples) {
    it(`${type} (${def.name}.${name})`, () => {
      for (const value of edges(field)) {
        const { cells, text, wire } = fastCells(def, name, value);
        const at = cells.flatMap((cell, i) => (cell.name === name ? [i] : []));
        const label = `${def.name}.${name} = ${String(value)}`;
        if (field.type === 'relation' || field.type === 'relationList') {
          // The id column beside the name column: the id(s) as stored.
          const [ids, names] = at as [number, number];
          const id = wire[name];
          expect(text(ids), label).toBe(
            id === null || id === undefined ? '' : Array.isArray(id) ? id.join('、') : String(id),
          );
          expect(text(names), label).toBe(ruleCell(field, id, NAMES));
        } else {
          expect(at, label).toHaveLength(1);
          expect(text(at[0] as number), label).toBe(ruleCell(field, wire[name]));
        }
      }
    });
  }

  it('order and refund items read as goods lines, the same on the fast path as by the rule', () => {
    const orderLines = [
      null,
      '[]',
      'null',
      'not json',
      '{"a":1}',
      '[{"goodsId":1,"name":"牛肉面","sku":"大碗","qty":2,"unitPriceFen":2800,"refundedQty":1},{"goodsId":2,"name":"奶茶","sku":null,"qty":1,"unitPriceFen":1800}]',
      '[{"goodsId":3,"name":"=HYPERLINK(\\"x\\")","qty":1,"unitPriceFen":100}]',
      '[{"goodsId":4,"qty":1}]',
      '[1,2]',
    ];
    const refundLines = [
      null,
      '[]',
      '[{"index":0,"goodsId":1,"name":"牛肉面","sku":"大碗","qty":1,"amountFen":2520,"points":0}]',
      '[{"goodsId":7,"qty":2,"amountFen":100}]',
    ];
    for (const [def, values] of [
      [getResource('orders'), orderLines],
      [getResource('orderRefunds'), refundLines],
    ] as const) {
      const field = def.fields.items as FieldDef;
      expect(readsAsLines(field), def.name).toBe(true);
      for (const value of values) {
        const { cells, text, wire } = fastCells(def, 'items', value);
        const at = cells.findIndex((cell) => cell.name === 'items');
        expect(text(at), `${def.name}.items = ${String(value)}`).toBe(ruleCell(field, wire.items));
      }
    }
    const { cells, text } = fastCells(getResource('orders'), 'items', orderLines[5]);
    expect(text(cells.findIndex((cell) => cell.name === 'items'))).toBe(
      '牛肉面（大碗）×2 ¥56.00（已退 1）；奶茶 ×1 ¥18.00',
    );
    const formula = fastCells(getResource('orders'), 'items', orderLines[6]);
    expect(formula.text(formula.cells.findIndex((cell) => cell.name === 'items'))).toBe(
      `"'=HYPERLINK(""x"") ×1 ¥1.00"`,
    );
  });

  it('createdAt and updatedAt read as China time, near midnight and at the ends of a Date', () => {
    const def = RESOURCES.find((d) => modelOf(d).hasTable) as ResourceDef;
    const stamp: FieldDef = { type: 'datetime', label: '创建时间' };
    for (const ms of edges(stamp)) {
      const { cells, text, wire } = fastCells(def, null, null, ms);
      const created = cells.findIndex((cell) => cell.column === 'created_at');
      const updated = cells.findIndex((cell) => cell.column === 'updated_at');
      expect(text(created), String(ms)).toBe(ruleCell(stamp, wire.createdAt));
      expect(text(updated), String(ms)).toBe(ruleCell(stamp, wire.updatedAt));
    }
  });

  it('writes what the export has always written (the rule for a sheet, spelled out)', () => {
    const cell = (type: FieldType, value: unknown) => {
      const { def, name } = samples.get(type) as Sample;
      const { cells, text } = fastCells(def, name, value);
      const at = cells.map((c, i) => [c, i] as const).filter(([c]) => c.name === name);
      return text((at[at.length - 1] as readonly [unknown, number])[1]);
    };
    expect(cell('money', -50)).toBe('-0.50');
    expect(cell('money', 123_456_789)).toBe('1234567.89');
    expect(cell('money', 0)).toBe('0.00');
    expect(cell('datetime', Date.UTC(2024, 1, 29, 16, 0))).toBe('2024-03-01 00:00');
    expect(cell('datetime', Date.UTC(1990, 6, 1, 15, 30))).toBe('1990-07-01 23:30');
    expect(cell('boolean', 1)).toBe('是');
    expect(cell('boolean', 0)).toBe('否');
    expect(cell('string', '=SUM(A1)')).toBe("'=SUM(A1)");
    expect(cell('string', 'a,b')).toBe('"a,b"');
    expect(cell('string', '朝阳门店😀')).toBe('朝阳门店😀');
    expect(cell('relation', 2)).toBe(`"'=HYPERLINK(""x"")"`);
    expect(cell('relation', 9)).toBe('');
    expect(cell('relationList', '[1,9]')).toBe('朝阳门店、');
    expect(cell('stringList', '[]')).toBe('');
    expect(cell('json', '{"a":"中"}')).toBe('"{""a"":""中""}"');
    const { field } = samples.get('enum') as Sample;
    if (field.type === 'enum')
      expect(cell('enum', field.options[0]?.value)).toBe(csvCell(field.options[0]?.label ?? ''));
  });
});
