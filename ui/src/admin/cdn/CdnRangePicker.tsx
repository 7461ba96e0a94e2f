/**
 * The day range of 自定义 — antd's RangePicker with dayjs, a lazy chunk of its own (35 KB gzip)
 * because only that period needs it: the usage board shows without it.
 */
import { chinaDayOf, dayText, parseDayText } from '@wanxiang/core';
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../../app/dayjs';

/** A picked calendar day (whatever the browser's zone) as a China day number. */
const dayOfPicked = (value: Dayjs) => parseDayText(value.format('YYYY-MM-DD')) as number;

export default function CdnRangePicker({
  days,
  onChange,
}: {
  days: [number, number];
  onChange: (days: [number, number]) => void;
}) {
  return (
    <DatePicker.RangePicker
      aria-label="日期范围"
      allowClear={false}
      value={[dayjs(dayText(days[0])), dayjs(dayText(days[1]))]}
      disabledDate={(current, info) => {
        const day = dayOfPicked(current);
        if (day > chinaDayOf(Date.now())) return true;
        const from = info?.from;
        return from ? Math.abs(day - dayOfPicked(from)) > 90 : false;
      }}
      onChange={(value) => {
        const [a, b] = value ?? [];
        if (a && b) onChange([dayOfPicked(a), dayOfPicked(b)]);
      }}
    />
  );
}
