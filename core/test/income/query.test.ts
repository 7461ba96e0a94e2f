import { describe, expect, it } from 'vitest';
import { incomeQueryString, parseDayText, parseIncomeQuery } from '../../src/index';

const today = parseDayText('2025-03-12') as number;
const parse = (raw: Record<string, unknown>) => parseIncomeQuery(raw, today);

describe('parseIncomeQuery', () => {
  it('defaults to the last 30 days of every store', () => {
    expect(parse({})).toEqual({
      ok: true,
      query: {
        granularity: 'day',
        from: '2025-02-11',
        to: '2025-03-12',
        storeId: null,
        fromDay: today - 29,
        toDay: today,
      },
    });
  });

  it('takes a range, a granularity and a store', () => {
    const result = parse({ granularity: 'week', from: '2025-01-06', to: '2025-02-02', storeId: '7' });
    expect(result.ok && result.query).toMatchObject({
      granularity: 'week',
      from: '2025-01-06',
      to: '2025-02-02',
      storeId: 7,
    });
  });

  it('reads an end after today as today', () => {
    const result = parse({ granularity: 'month', from: '2025-03-01', to: '2025-03-31' });
    expect(result.ok && [result.query.from, result.query.to]).toEqual(['2025-03-01', '2025-03-12']);
  });

  it.each([
    [{ granularity: 'year' }, { granularity: '统计粒度须为 day、week 或 month' }],
    [{ from: '2025-02-30' }, { from: '请输入有效日期（YYYY-MM-DD）' }],
    [{ to: '12/03/2025' }, { to: '请输入有效日期（YYYY-MM-DD）' }],
    [{ from: '2025-03-05', to: '2025-03-01' }, { from: '开始日期不能晚于结束日期' }],
    [{ from: '2025-03-13' }, { from: '开始日期不能晚于今天' }],
    [{ from: '2024-03-11', to: '2025-03-12' }, { from: '按日统计最多 366 天，请缩短日期范围' }],
    [{ granularity: 'week', from: '2024-03-01' }, { from: '按周统计最多 53 周，请缩短日期范围' }],
    [{ granularity: 'month', from: '2022-03-01' }, { from: '按月统计最多 36 个月，请缩短日期范围' }],
    [{ storeId: '0' }, { storeId: '门店须为门店的 id' }],
    [{ storeId: 'abc' }, { storeId: '门店须为门店的 id' }],
    [{ storeId: ['1', '2'] }, { storeId: '只能给一个值' }],
    [{ granulairty: 'week' }, { granulairty: '未知的查询参数' }],
  ])('refuses %j', (raw, fields) => {
    expect(parse(raw)).toEqual({ ok: false, fields });
  });

  it('allows exactly the longest spans', () => {
    expect(parse({ from: '2024-03-12', to: '2025-03-12' }).ok).toBe(true); // 366 days
    expect(parse({ granularity: 'month', from: '2022-04-01' }).ok).toBe(true); // 36 months
  });

  it('writes the query back as a query string', () => {
    const result = parse({ granularity: 'week', from: '2025-01-06', to: '2025-02-02', storeId: '7' });
    if (!result.ok) throw new Error('refused');
    expect(incomeQueryString(result.query)).toBe('granularity=week&from=2025-01-06&to=2025-02-02&storeId=7');
    const again = parse(Object.fromEntries(new URLSearchParams(incomeQueryString(result.query))));
    expect(again).toEqual(result);
  });
});
