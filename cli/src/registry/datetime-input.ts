/**
 * Times as operators type them. The product shows times in China Standard Time (core's
 * formatDateTime), so a time typed without a zone means that zone too — `--from 2024-05-01`
 * on a UTC server means the same day the admin screen shows. A bare date that ends a range
 * (`--to`, `--created-at-lte`) includes the whole day.
 */
const ZONE = '+08:00';
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)$/;

export function normaliseDateTimeText(text: string, bound: 'start' | 'end' = 'start'): string {
  const trimmed = text.trim();
  if (DATE.test(trimmed)) return `${trimmed}T${bound === 'end' ? '23:59:59.999' : '00:00:00.000'}${ZONE}`;
  const local = LOCAL_TIME.exec(trimmed);
  if (local) return `${local[1]}T${local[2]}${ZONE}`;
  return trimmed;
}
