/**
 * A date range filter: whole days, sent as `_gte`/`_lte` (ISO instants of the days in China for
 * date-times, plain dates for dates). Its own chunk with the date picker: lists show before the picker arrives.
 */
import type { FieldDef } from '@wanxiang/core';
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../app/dayjs';
import { fromChinaWallClock, toChinaWallClock } from './china-wall-clock';

export interface DateRangeFilterProps {
  field: FieldDef;
  value?: (string | undefined)[];
  onChange?: (value: (string | undefined)[] | undefined) => void;
  id?: string;
}

function toQuery(
  field: FieldDef,
  value: Dayjs | null | undefined,
  edge: 'start' | 'end',
): string | undefined {
  if (!value) return undefined;
  const day = edge === 'start' ? value.startOf('day') : value.endOf('day');
  // A date-time field: the day's first and last instant in China, whatever the browser's zone.
  return field.type === 'date' ? day.format('YYYY-MM-DD') : fromChinaWallClock(day);
}

function fromQuery(field: FieldDef, text: string | undefined): Dayjs | null {
  if (!text) return null;
  return field.type === 'date' ? dayjs(text) : toChinaWallClock(text);
}

export default function DateRangeFilter({ field, value, onChange, id }: DateRangeFilterProps) {
  const [from, to] = value ?? [];
  return (
    <DatePicker.RangePicker
      id={id}
      value={[fromQuery(field, from), fromQuery(field, to)]}
      allowEmpty={[true, true]}
      onChange={(range) => {
        const next = [toQuery(field, range?.[0], 'start'), toQuery(field, range?.[1], 'end')];
        onChange?.(next[0] || next[1] ? next : undefined);
      }}
      style={{ width: '100%' }}
    />
  );
}
