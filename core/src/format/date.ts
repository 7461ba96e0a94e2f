/**
 * Dates as people read them here (QUALITY.md: `YYYY-MM-DD HH:mm`), in China Standard Time whatever
 * the machine's zone — an operator's script on a UTC server prints the same as the admin screen.
 *
 * China Standard Time is UTC+8 all year, so it is plain arithmetic on the instant, not `Intl`'s
 * Asia/Shanghai: the time zone database also knows the summer times of 1986–1991 and the local
 * mean time before 1901, which would make an old row read differently here than in the CSV
 * export (whose fast path adds the same eight hours).
 */
export const CHINA_OFFSET_MS = 8 * 3_600_000;

export const DAY_MS = 86_400_000;

/** The China day an instant falls on (days since 1970-01-01 in China). */
export function chinaDayOf(ms: number): number {
  return Math.floor((ms + CHINA_OFFSET_MS) / DAY_MS);
}

/** The first instant (epoch ms) of a China day: 16:00 UTC the day before. */
export function chinaDayStart(day: number): number {
  return day * DAY_MS - CHINA_OFFSET_MS;
}

/** China's midnight that began the day holding `ms`. */
export function chinaMidnightOf(ms: number): number {
  return chinaDayStart(chinaDayOf(ms));
}

/** `toISOString()` of the instant moved to UTC+8, or null when `value` is no time. */
function chinaIso(value: string | number | Date): string | null {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? Math.trunc(value)
        : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const local = new Date(ms + CHINA_OFFSET_MS);
  return Number.isNaN(local.getTime()) ? null : local.toISOString();
}

/** Epoch ms → `20240501143005` (China time, to the second): the time part of order and refund numbers. */
export function chinaCompactStamp(ms: number): string {
  return new Date(ms + CHINA_OFFSET_MS).toISOString().replace(/[-T:]/g, '').slice(0, 14);
}

/** ISO string, epoch ms or Date → `2024-05-01 14:30`, or null when it is no time. */
export function chinaDateTime(value: string | number | Date): string | null {
  const iso = chinaIso(value);
  return iso === null ? null : iso.slice(0, 16).replace('T', ' ');
}

/** ISO string, epoch ms or Date → `2024-05-01 14:30`; `-` when empty or invalid. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return chinaDateTime(value) ?? '-';
}

/** → `2024-05-01` in China Standard Time. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return chinaIso(value)?.slice(0, 10) ?? '-';
}
