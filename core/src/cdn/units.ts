/**
 * Traffic in human units. Binary multiples (1 KB = 1 024 B), as nginx's own size suffixes and
 * the CDN consoles people compare with (阿里云, 腾讯云 traffic charts) count them; the unit is
 * written KB/MB/GB/TB as those consoles write it.
 */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** 0 → `0 B`, 1536 → `1.5 KB`, 5 × 2^30 → `5 GB`; up to 3 significant digits, `-` for no number. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '-';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  const text = digits === 0 ? value.toFixed(0) : value.toFixed(digits).replace(/\.?0+$/, '');
  return `${sign}${text} ${UNITS[unit]}`;
}

/** The unit a whole series reads best in (the largest value's), for a chart axis. */
export function bytesUnitFor(max: number): { unit: string; divisor: number } {
  let unit = 0;
  let divisor = 1;
  while (max / divisor >= 1024 && unit < UNITS.length - 1) {
    divisor *= 1024;
    unit += 1;
  }
  return { unit: UNITS[unit] as string, divisor };
}

/** 0.8765 → `87.7%`; null (unknown) → `未知`. */
export function formatHitRatio(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '未知';
  return `${(ratio * 100).toFixed(1)}%`;
}
