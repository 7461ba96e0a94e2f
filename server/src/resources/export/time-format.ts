/**
 * Epoch milliseconds as text, without a `Date` per value: a list answer has a dozen datetimes a
 * row and an export millions. The calendar day is computed arithmetically (days since the epoch →
 * civil date, proleptic Gregorian, as `Date` does) and its text is cached; the time of day comes
 * from small tables. Outside years 1970–9999, or for a value that is not a whole number of
 * milliseconds, both fall back to `Date`, so every output equals `Date`'s exactly
 * (test/resources/formats.test.ts compares them).
 */

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: beyond this `toISOString` writes a six-digit year. */
const MAX_FAST_MS = 253_402_300_800_000;
/** The furthest instant a `Date` holds (±100 000 000 days from 1970). */
export const MAX_DATE_MS = 8.64e15;
/** Asia/Shanghai is UTC+8 all year (no daylight saving time since 1991). */
export const CHINA_OFFSET_MS = 8 * 3_600_000;

const pad2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const pad3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let minutes: string[] | null = null;

/** `HH:mm` of a minute of the day (0 … 1439). */
function minuteText(minute: number): string {
  minutes ??= Array.from({ length: 1440 }, (_, i) => `${pad2[Math.floor(i / 60)]}:${pad2[i % 60]}`);
  return minutes[minute] as string;
}

const dayTexts = new Map<number, string>();
const MAX_DAYS = 8192;

/** `YYYY-MM-DD` of a day counted from 1970-01-01 (0 … 2 932 896). */
function dayText(day: number): string {
  const cached = dayTexts.get(day);
  if (cached !== undefined) return cached;
  // Howard Hinnant's civil_from_days.
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const text = `${String(y).padStart(4, '0')}-${pad2[m]}-${pad2[d]}`;
  if (dayTexts.size >= MAX_DAYS) dayTexts.clear();
  dayTexts.set(day, text);
  return text;
}

/** `new Date(ms).toISOString()` for a finite number of milliseconds. */
export function isoText(ms: number): string {
  if (!(ms >= 0 && ms < MAX_FAST_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  return `${dayText(day)}T${minuteText(rest)}:${pad2[second]}.${pad3[milli]}Z`;
}

/**
 * The texts of recent minutes, direct-mapped by minute number: a row's times are often minutes
 * apart and rows come in time order. Few slots, so a text dies young (thousands of slots kept each
 * text alive across garbage collections, and V8 promoted the dead strings to its old generation).
 */
const MINUTE_SLOTS = 64;
const minuteKeys = new Float64Array(MINUTE_SLOTS).fill(-1);
const minuteTexts: string[] = new Array(MINUTE_SLOTS).fill('');

/** `YYYY-MM-DD HH:mm` in China time of epoch milliseconds (finite). */
export function chinaMinuteText(ms: number): string {
  const local = ms + CHINA_OFFSET_MS;
  if (!(local >= 0 && local < MAX_FAST_MS) || !Number.isInteger(local))
    return new Date(local).toISOString().slice(0, 16).replace('T', ' ');
  const minutes = Math.floor(local / 60_000);
  const slot = minutes % MINUTE_SLOTS;
  if (minuteKeys[slot] === minutes) return minuteTexts[slot] as string;
  const day = Math.floor(minutes / 1440);
  const text = `${dayText(day)} ${minuteText(minutes - day * 1440)}`;
  minuteKeys[slot] = minutes;
  minuteTexts[slot] = text;
  return text;
}
