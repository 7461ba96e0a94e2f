/** The access-log line parser and the hourly arithmetic (core/src/cdn). */
import { describe, expect, it } from 'vitest';
import {
  chinaHourLabel,
  cnameOf,
  formatBytes,
  formatHitRatio,
  HourlyUsage,
  hitRatioOf,
  hourStartOf,
  parseAccessLogLine,
  parseTimeLocal,
  usagePeriodRange,
} from '../../src/index';

const LINE =
  '203.0.113.7 - - [10/Oct/2024:13:55:36 +0800] "GET /img/a.jpg HTTP/1.1" 200 2326 "https://example.com/" "Mozilla/5.0 (X11; Linux x86_64)"';

describe('parseAccessLogLine', () => {
  it('reads a combined-format line: time with its offset, status, bytes, no cache field', () => {
    expect(parseAccessLogLine(LINE)).toEqual({
      ok: true,
      entry: { time: Date.UTC(2024, 9, 10, 5, 55, 36), status: 200, bytes: 2326 },
    });
  });

  it('reads the cache field when a format appends it, bare or quoted, any case', () => {
    expect(parseAccessLogLine(`${LINE} HIT`)).toMatchObject({ ok: true, entry: { cache: 'HIT' } });
    expect(parseAccessLogLine(`${LINE} "MISS"`)).toMatchObject({ ok: true, entry: { cache: 'MISS' } });
    expect(parseAccessLogLine(`${LINE} expired`)).toMatchObject({ ok: true, entry: { cache: 'EXPIRED' } });
    expect(parseAccessLogLine(`${LINE} -`)).toMatchObject({ ok: true, entry: { cache: '-' } });
    // More custom fields after the cache status are ignored.
    expect(parseAccessLogLine(`${LINE} STALE 0.004 "10.0.0.2:80"`)).toMatchObject({
      ok: true,
      entry: { cache: 'STALE' },
    });
  });

  it('another custom field in the cache field’s place is no cache field', () => {
    const parsed = parseAccessLogLine(`${LINE} 0.005`);
    expect(parsed).toEqual({
      ok: true,
      entry: { time: Date.UTC(2024, 9, 10, 5, 55, 36), status: 200, bytes: 2326 },
    });
  });

  it('quoted fields may hold escaped quotes; a user name and `-` bytes are fine', () => {
    const line =
      '2001:db8::1 - alice [01/Jan/2025:00:00:00 +0000] "GET /q?x=\\"y\\" HTTP/2.0" 304 - "-" "curl/8.0 \\"x\\""';
    expect(parseAccessLogLine(line)).toEqual({
      ok: true,
      entry: { time: Date.UTC(2025, 0, 1), status: 304, bytes: 0 },
    });
  });

  it('every malformed kind is told apart', () => {
    expect(parseAccessLogLine('')).toEqual({ ok: false, kind: 'format' });
    expect(parseAccessLogLine('hello world')).toEqual({ ok: false, kind: 'format' });
    // Common format (no referer / agent) is not combined.
    expect(parseAccessLogLine('1.2.3.4 - - [10/Oct/2024:13:55:36 +0800] "GET / HTTP/1.1" 200 5')).toEqual({
      ok: false,
      kind: 'format',
    });
    // An unterminated quote.
    expect(parseAccessLogLine(LINE.replace('" 200', ' 200'))).toEqual({ ok: false, kind: 'format' });
    expect(parseAccessLogLine(LINE.replace('10/Oct/2024', '31/Feb/2024'))).toEqual({
      ok: false,
      kind: 'time',
    });
    expect(parseAccessLogLine(LINE.replace('10/Oct/2024', '10/Okt/2024'))).toEqual({
      ok: false,
      kind: 'time',
    });
    expect(parseAccessLogLine(LINE.replace('13:55:36', '25:55:36'))).toEqual({ ok: false, kind: 'time' });
    expect(parseAccessLogLine(LINE.replace('+0800', '0800'))).toEqual({ ok: false, kind: 'time' });
    expect(parseAccessLogLine(LINE.replace('" 200 ', '" 2x0 '))).toEqual({ ok: false, kind: 'status' });
    expect(parseAccessLogLine(LINE.replace('" 200 ', '" 700 '))).toEqual({ ok: false, kind: 'status' });
    expect(parseAccessLogLine(LINE.replace(' 2326 ', ' 12kb '))).toEqual({ ok: false, kind: 'bytes' });
    expect(parseAccessLogLine(LINE.replace(' 2326 ', ' -5 '))).toEqual({ ok: false, kind: 'bytes' });
    expect(parseAccessLogLine(`${LINE} HTI`)).toEqual({ ok: false, kind: 'cache' });
    expect(parseAccessLogLine(`${LINE.slice(0, -1)}${'x'.repeat(20_000)}"`)).toEqual({
      ok: false,
      kind: 'tooLong',
    });
  });
});

describe('parseTimeLocal', () => {
  it('applies the line’s own offset, east and west of UTC', () => {
    expect(parseTimeLocal('10/Oct/2000:13:55:36 -0700')).toBe(Date.UTC(2000, 9, 10, 20, 55, 36));
    expect(parseTimeLocal('10/Oct/2000:13:55:36 +0800')).toBe(Date.UTC(2000, 9, 10, 5, 55, 36));
    expect(parseTimeLocal('10/Oct/2000:13:55:36 +0545')).toBe(Date.UTC(2000, 9, 10, 8, 10, 36));
    expect(parseTimeLocal('29/Feb/2024:00:00:00 +0000')).toBe(Date.UTC(2024, 1, 29));
    expect(parseTimeLocal('29/Feb/2023:00:00:00 +0000')).toBeNull();
  });
});

describe('hourly usage', () => {
  it('buckets by UTC hour start; the label is the China hour', () => {
    const t = Date.UTC(2025, 0, 1, 15, 59, 59);
    expect(hourStartOf(t)).toBe(Date.UTC(2025, 0, 1, 15));
    expect(chinaHourLabel(Date.UTC(2025, 0, 1, 15))).toBe('2025-01-01 23:00');
    expect(chinaHourLabel(Date.UTC(2025, 0, 1, 16))).toBe('2025-01-02 00:00');
  });

  it('sums requests, bytes, status classes and cache verdicts per hour', () => {
    const usage = new HourlyUsage();
    const h = Date.UTC(2025, 0, 1, 0);
    usage.add({ time: h + 10, status: 200, bytes: 100, cache: 'HIT' });
    usage.add({ time: h + 20, status: 304, bytes: 0, cache: 'REVALIDATED' });
    usage.add({ time: h + 30, status: 404, bytes: 50, cache: 'MISS' });
    usage.add({ time: h + 40, status: 502, bytes: 10, cache: '-' });
    usage.add({ time: h + 3_600_000, status: 200, bytes: 7, cache: 'BYPASS' });
    usage.add({ time: h + 50, status: 101, bytes: 0 });
    expect(usage.list()).toEqual([
      {
        hour: h,
        requests: 5,
        bytes: 160,
        hits: 2,
        misses: 1,
        status2xx: 1,
        status3xx: 1,
        status4xx: 1,
        status5xx: 1,
      },
      {
        hour: h + 3_600_000,
        requests: 1,
        bytes: 7,
        hits: 0,
        misses: 1,
        status2xx: 1,
        status3xx: 0,
        status4xx: 0,
        status5xx: 0,
      },
    ]);
  });

  it('hit ratio is unknown (null) without cache verdicts, not 0', () => {
    expect(hitRatioOf(0, 0)).toBeNull();
    expect(hitRatioOf(0, 4)).toBe(0);
    expect(hitRatioOf(3, 1)).toBe(0.75);
    expect(formatHitRatio(null)).toBe('未知');
    expect(formatHitRatio(0.8766)).toBe('87.7%');
  });
});

describe('formatBytes and cnameOf', () => {
  it('human units, binary multiples', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 2 ** 30)).toBe('5 GB');
    expect(formatBytes(123.4 * 2 ** 40)).toBe('123 TB');
    expect(formatBytes(null)).toBe('-');
  });

  it('the CNAME: dots to dashes under the base, wildcards named, long names kept to one label', () => {
    expect(cnameOf('img.example.com', 'cdn.wanxiang.cn')).toBe('img-example-com.cdn.wanxiang.cn');
    expect(cnameOf('*.Example.com', 'cdn.wanxiang.cn')).toBe('wildcard-example-com.cdn.wanxiang.cn');
    const long = `${'a'.repeat(60)}.example.com`;
    const label = cnameOf(long, 'b').split('.')[0] as string;
    expect(label.length).toBeLessThanOrEqual(63);
    expect(cnameOf(long, 'b')).not.toBe(cnameOf(`${'a'.repeat(60)}.example.org`, 'b'));
  });
});

describe('usagePeriodRange', () => {
  it('whole hours up to and including the current one', () => {
    const now = Date.UTC(2025, 0, 2, 3, 20);
    expect(usagePeriodRange('24h', now)).toEqual({
      from: Date.UTC(2025, 0, 1, 4),
      to: Date.UTC(2025, 0, 2, 4),
    });
    const week = usagePeriodRange('7d', now);
    expect((week.to - week.from) / 3_600_000).toBe(168);
  });
});
