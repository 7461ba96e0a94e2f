/** The pieces behind the commands' output that are worth checking on their own. */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FieldDef, f, options } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { progressLine } from '../src/export/progress';
import { RowCounter } from '../src/export/row-counter';
import { displayWidth } from '../src/io/text';
import { displayValue } from '../src/output/columns';
import { csvLine } from '../src/output/csv';
import { renderTable } from '../src/output/table';
import { normaliseDateTimeText } from '../src/registry/datetime-input';
import { scanInvocation } from '../src/registry/invocation';

async function count(format: 'csv' | 'ndjson', chunks: string[]): Promise<number> {
  const counter = new RowCounter(format);
  await pipeline(
    Readable.from(chunks.map((c) => Buffer.from(c))),
    counter,
    new Writable({ write: (_chunk, _encoding, done) => done() }),
  );
  return counter.rows;
}

describe('row counter', () => {
  it('counts CSV records, not lines: quoted line breaks, a header, chunks cut anywhere', async () => {
    const csv = `\uFEFFID,地址\r\n1,"朝阳区\r\n""三里屯"""\r\n2,海淀区\r\n3,"a,\nb"\r\n`;
    expect(await count('csv', [csv])).toBe(3);
    // Cut at every position: the count does not depend on where chunks end.
    const bytes = Buffer.from(csv);
    for (let cut = 1; cut < bytes.length; cut++) {
      const counter = new RowCounter('csv');
      await pipeline(
        Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]),
        counter,
        new Writable({ write: (_c, _e, done) => done() }),
      );
      expect(counter.rows).toBe(3);
    }
  });

  it('counts NDJSON lines, a last line without a newline included', async () => {
    expect(await count('ndjson', ['{"id":1}\n{"id":', '2}\n{"id":3}'])).toBe(3);
    expect(await count('ndjson', [])).toBe(0);
    expect(await count('csv', ['\uFEFFID,名称\r\n'])).toBe(0);
  });
});

describe('table', () => {
  const columns = [
    { header: 'ID', align: 'right' as const, shrink: false },
    { header: '门店名称' },
    { header: '地址' },
    { header: '创建时间', shrink: false },
  ];
  const rows = [
    ['7', '朝阳门店', '北京市朝阳区朝阳门外大街 1 号', '2024-05-01 08:00'],
    ['12', '国贸店', '建国门外大街 2 号', '2024-05-02 09:30'],
  ];

  it('aligns columns by display width, numbers to the right', () => {
    const { text, omitted } = renderTable(columns, rows, Number.POSITIVE_INFINITY);
    expect(omitted).toEqual([]);
    const lines = text.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^ 7 {2}朝阳门店 {2}北京市/);
    expect(lines[2]).toMatch(/^12 {2}国贸店 {4}建国门/);
    const at = (line: string, cell: string) => displayWidth(line.slice(0, line.indexOf(cell)));
    expect(at(lines[1] as string, '2024')).toBe(at(lines[2] as string, '2024'));
  });

  it('cuts free text with … before leaving out a column; never cuts a date', () => {
    const cut = renderTable(columns, rows, 50);
    expect(cut.omitted).toEqual([]);
    expect(cut.text).toMatch(/ 7 {2}朝阳门店 {2}北京市朝阳区朝阳…\s+2024-05-01 08:00/);
    for (const line of cut.text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(50);

    const dropped = renderTable(columns, rows, 40);
    expect(dropped.omitted).toEqual(['创建时间']);
    expect(dropped.text).not.toContain('2024');
    for (const line of dropped.text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });
});

describe('command line scan', () => {
  it('finds the command and its operands around options and their values', () => {
    expect(scanInvocation(['--api-url', 'http://x', 'list', 'orders', '--status', 'paid'])).toEqual({
      command: 'list',
      operands: ['orders'],
    });
    expect(scanInvocation(['action', '--yes', 'stores', '3', 'close', '--json'])).toEqual({
      command: 'action',
      operands: ['stores', '3', 'close'],
    });
    expect(scanInvocation(['list', '--sort=-createdAt', '--limit', '5', 'stores'])).toEqual({
      command: 'list',
      operands: ['stores'],
    });
  });
});

describe('times typed by operators', () => {
  it('read as China time; a bare date ending a range includes the whole day', () => {
    expect(Date.parse(normaliseDateTimeText('2024-05-01'))).toBe(Date.parse('2024-04-30T16:00:00Z'));
    expect(Date.parse(normaliseDateTimeText('2024-05-31', 'end'))).toBe(
      Date.parse('2024-05-31T15:59:59.999Z'),
    );
    expect(Date.parse(normaliseDateTimeText('2024-05-01 08:30'))).toBe(Date.parse('2024-05-01T00:30:00Z'));
    expect(normaliseDateTimeText('2024-05-01T08:30:00Z')).toBe('2024-05-01T08:30:00Z');
  });
});

describe('export progress', () => {
  it('shows a bar, the share and the rate when the total is known', () => {
    expect(progressLine(250_000, 70 * 1024 * 1024, 5, 1_000_000)).toBe(
      '导出中 [█████░░░░░░░░░░░░░░░] 25% 250,000/1,000,000 行 · 70.0 MB · 50,000 行/秒 · 剩余约 15 秒',
    );
    expect(progressLine(1200, 2048, 2, null)).toBe('导出中 1,200 行 · 2.0 KB · 600 行/秒');
  });
});

describe('csv', () => {
  it('quotes only cells that need it', () => {
    expect(csvLine([1, '朝阳门店', 'a,b', 'say "hi"', null, true, ['x']])).toBe(
      '1,朝阳门店,"a,b","say ""hi""",,true,"[""x""]"\r\n',
    );
  });
});

describe('a value for people (core fieldText, as on the admin screen)', () => {
  const column = (field: FieldDef) => ({ name: 'x', field });
  it('shows labels, ¥, China time, related names and - for nothing', () => {
    const status = f.enum('状态', options(['open', '营业中']));
    expect(displayValue(column(status), 'open')).toBe('营业中');
    expect(displayValue(column(f.money('金额')), -123456)).toBe('-¥1,234.56');
    expect(displayValue(column(f.datetime('时间')), '2024-02-29T16:00:00.000Z')).toBe('2024-03-01 00:00');
    expect(displayValue(column(f.relation('门店', 'stores')), 3, { x: { 3: '国贸店' } })).toBe('国贸店');
    expect(displayValue(column(f.relation('门店', 'stores')), 4, { x: { 3: '国贸店' } })).toBe('#4');
    expect(displayValue(column(f.stringList('标签')), ['甲', '乙'])).toBe('甲、乙');
    expect(displayValue(column(f.stringList('标签')), [])).toBe('-');
    expect(displayValue(column(f.boolean('上架')), false)).toBe('否');
    expect(displayValue(column(f.string('名称')), null)).toBe('-');
  });

  it('keeps a table cell to one line; the get view keeps line breaks and pretty JSON', () => {
    expect(displayValue(column(f.text('备注')), '一\n二')).toBe('一 二');
    expect(displayValue(column(f.text('备注')), '一\n二', {}, true)).toBe('一\n二');
    expect(displayValue(column(f.json('明细')), { a: 1 }, {}, true)).toBe('{\n  "a": 1\n}');
  });
});
