import { getResource } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { columnsOf, visibleColumns } from './columns';
import { columnsToLeaveOut } from './use-columns-that-fit';

const goods = getResource('goods');
const columns = visibleColumns(columnsOf(goods), undefined);
const widths = columns.map(() => 80);

describe('columnsToLeaveOut', () => {
  it('leaves nothing out when nothing overflows', () => {
    expect(columnsToLeaveOut(goods, columns, widths, 0)).toEqual([]);
  });

  it('leaves out optional columns from the last one back until the overflow is freed', () => {
    const keys = columns.map((c) => c.key);
    const optional = keys.filter((k) => !['id', goods.displayField, 'status', 'createdAt'].includes(k));
    expect(columnsToLeaveOut(goods, columns, widths, 1)).toEqual(optional.slice(-1));
    expect(columnsToLeaveOut(goods, columns, widths, 81)).toEqual(optional.slice(-2).reverse());
  });

  it('keeps the ID, the name, the state and 创建时间 however narrow', () => {
    const out = columnsToLeaveOut(goods, columns, widths, 100_000);
    for (const key of ['id', goods.displayField, 'status', 'createdAt']) expect(out).not.toContain(key);
    expect(columns.filter((c) => !out.includes(c.key)).map((c) => c.key)).toEqual(
      columns.map((c) => c.key).filter((k) => ['id', goods.displayField, 'status', 'createdAt'].includes(k)),
    );
  });
});
