/**
 * The fast formatters of lists and exports give exactly what their plain definitions give:
 * `Date` for times, `toFixed` for money, `JSON.parse` + `JSON.stringify` for JSON cells, wire rows
 * for list rows, and — for every resource of the registry — an export's CSV cells made from
 * stored values equal the cells made from the wire row. Values are drawn from a seeded generator
 * with the awkward cases mixed in (negative and fractional times and amounts, text a spreadsheet
 * would run, JSON with spaces, escapes, repeated keys, lone surrogates, invalid text …).
 */
import { type FieldDef, RESOURCES } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { isCanonicalJson, storedJsonText } from '../../src/resources/export/canonical-json.js';
import { chinaTime } from '../../src/resources/export/cell-text.js';
import { CSV_KINDS, csvColumns, csvRow } from '../../src/resources/export/csv-columns.js';
import { csvCell, inert, needsQuotes } from '../../src/resources/export/csv-text.js';
import { chinaTimeOfStored, yuanText } from '../../src/resources/export/stored-text.js';
import { chinaMinuteText, isoText } from '../../src/resources/export/time-format.js';
import { arrayRowReader, type DbRow, isoOf, modelOf, toWireRow } from '../../src/resources/storage.js';
import { DAY, g, someJsonValue, someMs, someStored } from './stored-values.js';

describe('times without a Date per value', () => {
  it('isoText is toISOString', () => {
    for (let i = 0; i < 20_000; i++) {
      const ms = someMs();
      expect(isoText(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
    // Every calendar day from 1969 to 2100 (leap years, month ends) at some time of that day.
    for (let day = -400; day < 47_500; day++) {
      const ms = day * DAY + g.int(0, DAY - 1);
      if (isoText(ms) !== new Date(ms).toISOString())
        expect(isoText(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('chinaMinuteText is the China-time minute of the Date', () => {
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.trunc(someMs());
      const expected = new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
      expect(chinaMinuteText(ms), String(ms)).toBe(expected);
    }
  });

  it('a stored datetime is shown as its wire value would be', () => {
    const values: unknown[] = [
      null,
      undefined,
      '',
      'abc',
      '1700000000000',
      1.5e15,
      Number.NaN,
      1e300,
      -1e300,
      2 ** 60,
    ];
    for (let i = 0; i < 5000; i++) values.push(someMs());
    for (const value of values) expect(chinaTimeOfStored(value), String(value)).toBe(chinaTime(isoOf(value)));
  });
});

describe('money', () => {
  it('yuanText is (fen / 100).toFixed(2)', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      5,
      -5,
      99,
      100,
      101,
      1005,
      -1005,
      99_999,
      100_000,
      1e15 - 1,
      -(1e15 - 1),
      1e15,
      2 ** 53,
    ];
    for (let i = 0; i < 20_000; i++) {
      values.push(
        g.pick([
          () => g.int(0, 200_000),
          () => g.int(-1e9, 1e9),
          () => g.int(-1e15, 1e15),
          () => g.int(0, 100_000) + g.pick([0.5, 0.005, 0.125, 0.1]),
        ])(),
      );
    }
    for (const fen of values) expect(yuanText(fen), String(fen)).toBe((fen / 100).toFixed(2));
    expect(yuanText(Number.NaN)).toBe('NaN');
  });
});

describe('CSV cells', () => {
  it('quotes and keeps formulas inert as the rules say', () => {
    for (const text of [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\r',
      '=1+1',
      '+86',
      '-3',
      '@x',
      '\tx',
      '中文，逗号',
    ]) {
      expect(csvCell(text)).toBe(/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
      expect(needsQuotes(text)).toBe(/[",\r\n]/.test(text));
      expect(inert(text)).toBe(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    }
  });
});

// ---- JSON cells ------------------------------------------------------------------------------------

/** What the export wrote before: parse, then stringify (or '' for null and for text that is not JSON). */
function plainJsonCell(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return '';
  }
  return parsed === null ? '' : JSON.stringify(parsed);
}

describe('JSON cells', () => {
  it('copy canonical JSON and normalise anything else exactly as parse + stringify does', () => {
    const texts = [
      '[{"goodsId":1,"name":"宫保鸡丁","qty":2,"unitPriceFen":2800}]',
      '[{"goodsId": 1}]',
      '{"a":1,"a":2}',
      '{"b":1,"1":2}',
      '{"a":"\\u00e9"}',
      '{"a":"\\/"}',
      '["\ud800"]',
      '["😀"]',
      '[1.0]',
      '[1e2]',
      '[-0]',
      '[0]',
      '[01]',
      '[1234567890123456]',
      '{"a":[1,2,{"b":null}]}',
      'null',
      'true',
      '"text"',
      '',
      '[',
      '[1,]',
      '{"a":1}x',
      ' [1]',
      '[1] ',
      '[tru]',
      `${'['.repeat(70)}${']'.repeat(70)}`,
      `${'['.repeat(60)}${']'.repeat(60)}`,
    ];
    for (let i = 0; i < 3000; i++) {
      const value = someJsonValue();
      const canonical = JSON.stringify(value);
      texts.push(canonical, JSON.stringify(value, null, g.pick([1, 2])), canonical.replace(/,/g, ', '));
    }
    for (const text of texts) {
      expect(storedJsonText(text), text).toBe(plainJsonCell(text));
      if (isCanonicalJson(text)) expect(JSON.stringify(JSON.parse(text)), text).toBe(text);
    }
    // What the engine stores is recognised as it is (the fast way), not re-serialised.
    expect(isCanonicalJson('[{"goodsId":1,"name":"宫保鸡丁","sku":null,"qty":2,"unitPriceFen":2800}]')).toBe(
      true,
    );
    expect(storedJsonText(null)).toBe('');
  });
});

// ---- whole rows, every resource ----------------------------------------------------------------------

describe('rows from stored values', () => {
  const resources = RESOURCES.filter((def) => modelOf(def).hasTable);

  it('array rows become the same wire rows as row objects (every resource)', () => {
    for (const def of resources) {
      const model = modelOf(def);
      const columns = ['id', 'created_at', 'updated_at', ...model.stored.map((fs) => fs.column as string)];
      const read = arrayRowReader(model, columns);
      for (let i = 0; i < 40; i++) {
        const values = columns.map((_column, c) =>
          c === 0
            ? g.int(1, 1e6)
            : c < 3
              ? someMs()
              : someStored((model.stored[c - 3] as { field: FieldDef }).field),
        );
        const row: DbRow = Object.fromEntries(columns.map((column, c) => [column, values[c]]));
        expect(JSON.stringify(read(values)), def.name).toBe(JSON.stringify(toWireRow(model, row)));
      }
    }
  });

  it('CSV cells from stored values equal the cells from the wire row (every resource)', () => {
    for (const def of resources) {
      const model = modelOf(def);
      const columns = ['id', 'created_at', 'updated_at', ...model.stored.map((fs) => fs.column as string)];
      const { cells } = csvColumns(def);
      for (const cell of cells) cell.at = cell.column === null ? -1 : columns.indexOf(cell.column);
      // Related names: some ids have a name, some a name a spreadsheet would run, some none.
      const rawNames = new Map<string, Map<number, string | null>>();
      for (const cell of cells) {
        if (!cell.field || (cell.field.type !== 'relation' && cell.field.type !== 'relationList')) continue;
        const raw = rawNames.get(cell.name) ?? new Map<number, string | null>();
        for (let id = 1; id <= 40; id++)
          raw.set(id, id % 7 === 0 ? null : id % 5 === 0 ? `=名${id}` : `名称${id},号`);
        rawNames.set(cell.name, raw);
        cell.names = new Map(
          [...raw].map(([id, name]) => [
            id,
            cell.kind === CSV_KINDS.NAME ? csvCell(inert(name ?? '')) : name,
          ]),
        );
      }
      const wireNames = new Map(
        [...rawNames].map(([k, v]) => [k, new Map([...v].filter(([, n]) => n !== null))]),
      );
      const out: string[] = new Array(cells.length);
      for (let i = 0; i < 60; i++) {
        const values = columns.map((_column, c) =>
          c === 0
            ? g.int(1, 1e6)
            : c < 3
              ? someMs()
              : someStored((model.stored[c - 3] as { field: FieldDef }).field),
        );
        const row: DbRow = Object.fromEntries(columns.map((column, c) => [column, values[c]]));
        const wire = toWireRow(model, row);
        csvRow(out, cells, values, wire);
        cells.forEach((cell, c) => {
          // JSON cells are quoted by the chunk writer, not by csvRow.
          const fast = cell.kind === CSV_KINDS.JSON_TEXT ? csvCell(out[c] as string) : out[c];
          expect(fast, `${def.name}.${cell.name || cell.column}`).toBe(cell.fromWire(wire, wireNames));
        });
      }
    }
  });
});
