/**
 * Dates as people read them here (QUALITY.md: `YYYY-MM-DD HH:mm`), in China Standard Time whatever
 * the machine's zone — an operator's script on a UTC server prints the same as the admin screen.
 */
const TZ = 'Asia/Shanghai';

const dateTime = new Intl.DateTimeFormat('en-CA', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

function parts(value: string | number | Date): Record<string, string> | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return Object.fromEntries(dateTime.formatToParts(date).map((p) => [p.type, p.value]));
}

/** ISO string, epoch ms or Date → `2024-05-01 14:30`; `-` when empty or invalid. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const p = parts(value);
  if (!p) return '-';
  // Some ICU versions print midnight as 24.
  const hour = p.hour === '24' ? '00' : p.hour;
  return `${p.year}-${p.month}-${p.day} ${hour}:${p.minute}`;
}

/** → `2024-05-01` in China Standard Time. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const p = parts(value);
  return p ? `${p.year}-${p.month}-${p.day}` : '-';
}
