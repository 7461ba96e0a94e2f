/** Pickers in China Standard Time whatever the browser's zone (process.env.TZ plays the browser's). */
import { getResource } from '@wanxiang/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fromChinaWallClock, toChinaWallClock } from './china-wall-clock';
import { toFormValue, toWireValue } from './form-values';

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

const orders = getResource('orders');
const paidAt = orders.fields.paidAt;
if (!paidAt) throw new Error('orders.paidAt is missing');

describe.each(['UTC', 'America/New_York', 'Asia/Shanghai', 'Asia/Kolkata'])(
  'in a browser set to %s',
  (tz) => {
    it('a picker shows the instant as it reads in China', () => {
      process.env.TZ = tz;
      // 03:14 on 2 May in China.
      expect(toChinaWallClock('2024-05-01T19:14:00.000Z')?.format('YYYY-MM-DD HH:mm')).toBe(
        '2024-05-02 03:14',
      );
      expect(toChinaWallClock('not a time')).toBeNull();
    });

    it('what is picked means that time in China', () => {
      process.env.TZ = tz;
      const picked = toChinaWallClock('2024-05-01T19:14:00.000Z');
      if (!picked) throw new Error('no value');
      expect(fromChinaWallClock(picked.hour(9).minute(30))).toBe('2024-05-02T01:30:00.000Z');
      expect(fromChinaWallClock(picked.startOf('day'))).toBe('2024-05-01T16:00:00.000Z');
    });

    it("a form's date-time field shows China's wall clock", () => {
      process.env.TZ = tz;
      const value = toFormValue(paidAt, '2024-05-01T19:14:00.000Z') as { format(f: string): string };
      expect(value.format('YYYY-MM-DD HH:mm')).toBe('2024-05-02 03:14');
    });

    it('a form that was not touched sends the instant it was given', () => {
      process.env.TZ = tz;
      const wire = '2024-11-03T06:30:15.250Z';
      expect(toWireValue(paidAt, toFormValue(paidAt, wire))).toBe(wire);
    });
  },
);
