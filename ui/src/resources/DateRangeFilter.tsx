/**
 * A date range filter: whole days, sent as `_gte`/`_lte` (ISO instants for date-times, plain
 * dates for dates). Its own chunk with the date picker: lists show before the picker arrives.
 */
import type { FieldDef } from '@wanxiang/core';
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../app/dayjs';

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
  return field.type === 'date' ? day.format('YYYY-MM-DD') : day.toISOString();
}

const fromQuery = (text: string | undefined) => (text ? dayjs(text) : null);

export default function DateRangeFilter({ field, value, onChange, id }: DateRangeFilterProps) {
  const [from, to] = value ?? [];
  return (
    <DatePicker.RangePicker
      id={id}
      value={[fromQuery(from), fromQuery(to)]}
      allowEmpty={[true, true]}
      onChange={(range) => {
        const next = [toQuery(field, range?.[0], 'start'), toQuery(field, range?.[1], 'end')];
        onChange?.(next[0] || next[1] ? next : undefined);
      }}
      style={{ width: '100%' }}
    />
  );
}
