/**
 * The default columns of a list that fit its width. The table is as wide as its content and its
 * 操作 column is fixed at the end, so a list wider than the screen scrolls under that column: at
 * 1440 px the goods list's last columns sat behind it, cut, with nothing saying there was more.
 * Until the user chooses columns (列设置), the optional columns at the end of the row are left out,
 * from the last one back, until the rest fit; the ID, the name, the state and 创建时间 always stay,
 * and 列设置 tells how many were left out. A user's own choice is shown as chosen, and scrolls.
 */
import type { ResourceDef } from '@wanxiang/core';
import { type RefObject, useLayoutEffect, useState } from 'react';
import type { ColumnDef } from './columns';

export interface FitOptions {
  def: ResourceDef;
  /** The columns to show when there is room: the defaults, or the user's choice. */
  columns: readonly ColumnDef[];
  /** false: the user chose these columns; show them all. */
  auto: boolean;
  /** The rows on screen: their content sets the columns' widths. */
  rows: readonly unknown[];
  /** Header cells before the first column (the row selection). */
  leading: number;
}

/** The columns that stay however narrow the screen (they say which row it is and its state). */
function kept(def: ResourceDef, key: string): boolean {
  return key === 'id' || key === def.displayField || key === 'status' || key === 'createdAt';
}

/**
 * Which columns to leave out: from the last optional one back, until their widths (header cells
 * as rendered, in column order after `leading`) add up to the overflow.
 */
export function columnsToLeaveOut(
  def: ResourceDef,
  columns: readonly ColumnDef[],
  widths: readonly number[],
  overflow: number,
): string[] {
  const out: string[] = [];
  let freed = 0;
  for (let i = columns.length - 1; i >= 0 && freed < overflow; i--) {
    const column = columns[i] as ColumnDef;
    if (kept(def, column.key)) continue;
    out.push(column.key);
    freed += widths[i] ?? 0;
  }
  return out;
}

export function useColumnsThatFit(
  box: RefObject<HTMLElement | null>,
  { def, columns, auto, rows, leading }: FitOptions,
): { shown: ColumnDef[]; left: number } {
  // null: measure with every column shown (after the rows, the width or the columns changed).
  const [leftOut, setLeftOut] = useState<readonly string[] | null>(null);
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);

  const columnKeys = columns.map((c) => c.key).join(',');
  // No rows is a new [] on every render: one value for all of them.
  const shownRows = rows.length === 0 ? null : rows;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each is a reason to measure again
  useLayoutEffect(() => {
    setLeftOut(null);
  }, [shownRows, width, columnKeys, auto]);

  useLayoutEffect(() => {
    if (leftOut !== null || !auto) return;
    const scroller = box.current?.querySelector<HTMLElement>('.ant-table-content');
    const header = box.current?.querySelector('.ant-table-thead > tr');
    if (!scroller || !header) return;
    const overflow = scroller.scrollWidth - scroller.clientWidth;
    const cells = [...header.children].slice(leading, leading + columns.length);
    const widths = cells.map((cell) => cell.getBoundingClientRect().width);
    setLeftOut(overflow > 1 ? columnsToLeaveOut(def, columns, widths, overflow) : []);
  }, [leftOut, auto, box, def, columns, leading]);

  if (!auto || !leftOut || leftOut.length === 0) return { shown: [...columns], left: 0 };
  return { shown: columns.filter((c) => !leftOut.includes(c.key)), left: leftOut.length };
}
