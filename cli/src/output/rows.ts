/**
 * A page of rows in the four formats of `list`: a table for people, JSON / CSV / NDJSON for
 * scripts. Scripts get the rows as the API returns them (ids, fen, ISO times); people get labels,
 * ¥ and `YYYY-MM-DD HH:mm`.
 */
import type { ListResult, ResourceDef, Row } from '@wanxiang/core';
import { allColumns, displayValue, isFreeText, isNumeric, listColumns } from './columns';
import { csvLine } from './csv';
import { renderTable } from './table';

export type RowFormat = 'table' | 'json' | 'csv' | 'ndjson';

export interface RenderedList {
  stdout: string;
  /** Lines for stderr: the page position, columns left out. */
  notes: string[];
}

export function renderList(
  def: ResourceDef,
  format: RowFormat,
  result: ListResult<Row>,
  options: { withTotal?: boolean; width: number },
): RenderedList {
  const rows = result.list;
  switch (format) {
    case 'json': {
      const value = options.withTotal ? { total: result.count, rows } : rows;
      return { stdout: `${JSON.stringify(value, null, 2)}\n`, notes: [] };
    }
    case 'ndjson':
      return { stdout: rows.map((row) => `${JSON.stringify(row)}\n`).join(''), notes: [] };
    case 'csv': {
      const columns = allColumns(def);
      const lines = [
        csvLine(columns.map((c) => c.name)),
        ...rows.map((row) => csvLine(columns.map((c) => row[c.name]))),
      ];
      return { stdout: lines.join(''), notes: [] };
    }
    case 'table': {
      if (rows.length === 0) {
        const notes = [
          result.count > 0
            ? `第 ${result.pageIndex} 页没有记录（共 ${result.count} 条）`
            : `没有符合条件的${def.title}`,
        ];
        return { stdout: '', notes };
      }
      const columns = listColumns(def);
      const table = renderTable(
        columns.map((c) => ({
          header: c.field.label,
          align: isNumeric(c) ? 'right' : 'left',
          shrink: isFreeText(c),
        })),
        rows.map((row) => columns.map((c) => displayValue(c, row[c.name], result.relations))),
        options.width,
      );
      const pages = Math.max(1, Math.ceil(result.count / Math.max(1, result.pageSize)));
      const n = (value: number) => value.toLocaleString('en-US');
      const notes = [
        `第 ${n(result.pageIndex)}/${n(pages)} 页，每页 ${result.pageSize} 条，共 ${n(result.count)} 条`,
      ];
      if (table.omitted.length > 0) {
        notes.push(`终端宽度不够，未显示：${table.omitted.join('、')}（--format json 查看全部字段）`);
      }
      return { stdout: table.text, notes };
    }
  }
}
