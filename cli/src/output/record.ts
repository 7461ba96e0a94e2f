/** One row for people (`get`, and what `create`/`update`/actions answer): label, then value. */
import type { Relations, ResourceDef, Row } from '@wanxiang/core';
import { displayWidth } from '../io/text';
import { allColumns, displayValue } from './columns';

export function renderRecord(def: ResourceDef, row: Row, relations: Relations = {}): string {
  const entries = allColumns(def).map(
    (column) => [column.field.label, displayValue(column, row[column.name], relations, true)] as const,
  );
  const width = Math.max(...entries.map(([label]) => displayWidth(label)));
  const indent = ' '.repeat(width + 2);
  return entries
    .map(([label, value]) => {
      // Continuation lines of long text start under the value, not under the label.
      const text = value.split(/\r?\n/).join(`\n${indent}`);
      return `${label}${' '.repeat(width - displayWidth(label))}  ${text}`;
    })
    .join('\n')
    .concat('\n');
}
