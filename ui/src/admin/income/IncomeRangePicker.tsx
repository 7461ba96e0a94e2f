/**
 * The range of 收入统计 in the unit of its granularity: days, whole weeks (Monday to Sunday, as
 * dayjs zh-cn counts them) or whole months; nothing after today (China) and no longer a range
 * than core allows (MAX_PERIODS), so the picker cannot ask for what the server refuses. Its own
 * chunk (the date picker is the screen's heaviest part): the figures show before it arrives.
 */
import {
  dayText,
  type Granularity,
  type IncomeQuery,
  MAX_PERIODS,
  parseDayText,
  periodCount,
} from '@wanxiang/core';
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../../app/dayjs';

type Range = Pick<IncomeQuery, 'from' | 'to'>;

const DAY_FORMAT = 'YYYY-MM-DD';
const PICKER = { day: 'date', week: 'week', month: 'month' } as const;
const FORMAT = { day: DAY_FORMAT, week: 'YYYY-wo', month: 'YYYY-MM' } as const;

const dayOf = (value: Dayjs) => parseDayText(value.format(DAY_FORMAT)) as number;

function rangeOf(granularity: Granularity, start: Dayjs, end: Dayjs): Range {
  const unit = granularity === 'month' ? 'month' : granularity === 'week' ? 'week' : 'day';
  return { from: start.startOf(unit).format(DAY_FORMAT), to: end.endOf(unit).format(DAY_FORMAT) };
}

function presetsOf(granularity: Granularity, todayDate: Dayjs): { label: string; value: [Dayjs, Dayjs] }[] {
  if (granularity === 'day')
    return [
      { label: '近 7 天', value: [todayDate.subtract(6, 'day'), todayDate] },
      { label: '近 30 天', value: [todayDate.subtract(29, 'day'), todayDate] },
      { label: '本月', value: [todayDate.startOf('month'), todayDate] },
      {
        label: '上月',
        value: [
          todayDate.subtract(1, 'month').startOf('month'),
          todayDate.subtract(1, 'month').endOf('month'),
        ],
      },
      { label: '近 90 天', value: [todayDate.subtract(89, 'day'), todayDate] },
    ];
  if (granularity === 'week')
    return [
      { label: '近 4 周', value: [todayDate.subtract(3, 'week'), todayDate] },
      { label: '近 12 周', value: [todayDate.subtract(11, 'week'), todayDate] },
      { label: '近 26 周', value: [todayDate.subtract(25, 'week'), todayDate] },
    ];
  return [
    { label: '近 6 个月', value: [todayDate.subtract(5, 'month'), todayDate] },
    { label: '近 12 个月', value: [todayDate.subtract(11, 'month'), todayDate] },
    { label: '今年', value: [todayDate.startOf('year'), todayDate] },
    {
      label: '去年',
      value: [todayDate.subtract(1, 'year').startOf('year'), todayDate.subtract(1, 'year').endOf('year')],
    },
  ];
}

export default function IncomeRangePicker({
  query,
  today,
  onChange,
}: {
  query: IncomeQuery;
  today: number;
  onChange: (range: Range) => void;
}) {
  const { granularity } = query;
  const todayDate = dayjs(dayText(today));
  return (
    <DatePicker.RangePicker
      aria-label="日期范围"
      picker={PICKER[granularity]}
      format={FORMAT[granularity]}
      value={[dayjs(query.from), dayjs(query.to)]}
      allowClear={false}
      presets={presetsOf(granularity, todayDate)}
      disabledDate={(current, info) => {
        if (dayOf(current) > today) return granularity === 'day' || current.isAfter(todayDate, granularity);
        const from = info?.from;
        if (!from) return false;
        const [a, b] = [dayOf(from), dayOf(current)].sort((x, y) => x - y) as [number, number];
        return periodCount(granularity, a, b) > MAX_PERIODS[granularity];
      }}
      onChange={(range) => {
        const [start, end] = range ?? [];
        if (start && end) onChange(rangeOf(granularity, start, end));
      }}
    />
  );
}
