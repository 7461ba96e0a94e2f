/**
 * Date-time pickers hold China Standard Time's wall clock, whatever the browser's zone: an instant
 * reads in a form and a date filter as it reads in the list (core's formatDateTime), and what is
 * picked there means that time in China. China keeps UTC+8 all year, so no zone data is needed.
 */
import { CHINA_OFFSET_MS } from '@wanxiang/core';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../app/dayjs';

/** An instant → a dayjs whose fields (in the browser's zone) are the instant's wall clock in China. */
export function toChinaWallClock(instant: string | number | Date): Dayjs | null {
  const time = new Date(instant).getTime();
  if (Number.isNaN(time)) return null;
  // Its UTC fields are China's wall clock.
  const c = new Date(time + CHINA_OFFSET_MS);
  return dayjs(
    new Date(
      c.getUTCFullYear(),
      c.getUTCMonth(),
      c.getUTCDate(),
      c.getUTCHours(),
      c.getUTCMinutes(),
      c.getUTCSeconds(),
      c.getUTCMilliseconds(),
    ),
  );
}

/** A picker's value, its fields read as China's wall clock → the instant, as ISO text. */
export function fromChinaWallClock(value: Dayjs): string {
  const utc = Date.UTC(
    value.year(),
    value.month(),
    value.date(),
    value.hour(),
    value.minute(),
    value.second(),
    value.millisecond(),
  );
  return new Date(utc - CHINA_OFFSET_MS).toISOString();
}
