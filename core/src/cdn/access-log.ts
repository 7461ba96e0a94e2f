/**
 * One line of an nginx access log in the `combined` format, optionally followed by
 * `$upstream_cache_status` (many CDN / nginx cache setups append it):
 *
 *   $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
 *   "$http_referer" "$http_user_agent" [$upstream_cache_status]
 *
 * Libraries looked at (npm, 2025): `clf-parser` (0.0.2, ~500 downloads a month, common format
 * only, no user agent / referer, no tests of malformed input) and `alpine` (0.2.1, Apache
 * LogFormat strings, one object per line with every field as a string, last change years ago).
 * Neither is maintained nor faster than one compiled regex, and neither knows the cache field,
 * so the parser is this single regex plus a hand-written `$time_local` reader (Date.parse does
 * not read `10/Oct/2000:13:55:36 -0700`, and a generic date library would be ~10× slower on a
 * million lines).
 */

/** `$upstream_cache_status` values nginx writes (ngx_http_upstream module). */
export const CACHE_STATUSES = [
  'HIT',
  'MISS',
  'EXPIRED',
  'STALE',
  'UPDATING',
  'REVALIDATED',
  'BYPASS',
] as const;
export type CacheStatus = (typeof CACHE_STATUSES)[number];

/**
 * Served from the cache (a hit) or fetched from the origin (a miss). STALE and UPDATING serve
 * the cached copy; REVALIDATED answers from the cache after a 304 from the origin, so they are
 * hits, as nginx's own documentation and CDN dashboards count them. EXPIRED and BYPASS went to
 * the origin: misses.
 */
export const CACHE_HITS: ReadonlySet<CacheStatus> = new Set(['HIT', 'STALE', 'UPDATING', 'REVALIDATED']);

export interface AccessLogEntry {
  /** Epoch ms of the request (from `$time_local` with its own offset). */
  time: number;
  status: number;
  bytes: number;
  /**
   * The cache field when the line has one: a cache status, or `'-'` (nginx writes `-` for a
   * request the cache was not asked about). Absent when the line ends after the user agent.
   */
  cache?: CacheStatus | '-';
}

/** Why a line is not counted; each kind has its Chinese text in MALFORMED_REASONS. */
export type MalformedKind = 'format' | 'time' | 'status' | 'bytes' | 'cache' | 'tooLong';

export const MALFORMED_REASONS: Readonly<Record<MalformedKind, string>> = {
  format: '不是 nginx combined 格式',
  time: '时间无效',
  status: '状态码无效',
  bytes: '字节数无效',
  cache: '缓存状态无效',
  tooLong: '行过长',
};

export type ParsedLine = { ok: true; entry: AccessLogEntry } | { ok: false; kind: MalformedKind };

/** Longer lines are refused before the regex runs: a log line is rarely over 8 KiB. */
export const MAX_LINE_LENGTH = 16_384;

// Quoted fields allow nginx's escapes (`\"`, `\x22`) inside. The extra field after the user
// agent is taken quoted or bare; anything after it (more custom fields) is ignored.
const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const LINE = new RegExp(
  `^\\S+ \\S+ (?:\\S+|"[^"]*") \\[([^\\]]+)\\] ${QUOTED} (\\S+) (\\S+) ${QUOTED} ${QUOTED}(?:\\s+"?([^"\\s]*)"?)?(?:\\s.*)?$`,
);
const TIME = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};
const DIGITS = /^\d{1,15}$/;
const CACHE_SET: ReadonlySet<string> = new Set(CACHE_STATUSES);

/** `10/Oct/2000:13:55:36 -0700` → epoch ms, or null when it is no real time. */
export function parseTimeLocal(text: string): number | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const month = MONTHS[m[2] as string];
  if (month === undefined) return null;
  const day = Number(m[1]);
  const year = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const offH = Number(m[8]);
  const offM = Number(m[9]);
  if (hour > 23 || minute > 59 || second > 60 || offH > 14 || offM > 59 || day < 1) return null;
  const local = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // 31/Feb rolls over into March in Date.UTC: not a date.
  if (new Date(local).getUTCDate() !== day) return null;
  const offset = (offH * 60 + offM) * 60_000 * (m[7] === '-' ? -1 : 1);
  return local - offset;
}

/** One line (without its newline) → the entry, or why it is malformed. */
export function parseAccessLogLine(line: string): ParsedLine {
  if (line.length > MAX_LINE_LENGTH) return { ok: false, kind: 'tooLong' };
  const m = LINE.exec(line);
  if (!m) return { ok: false, kind: 'format' };
  const time = parseTimeLocal(m[1] as string);
  if (time === null) return { ok: false, kind: 'time' };
  const statusText = m[3] as string;
  const status = Number(statusText);
  if (!/^\d{3}$/.test(statusText) || status < 100 || status > 599) return { ok: false, kind: 'status' };
  const bytesText = m[4] as string;
  // Apache writes `-` for no body; nginx writes 0. Both are no bytes.
  if (bytesText !== '-' && !DIGITS.test(bytesText)) return { ok: false, kind: 'bytes' };
  const bytes = bytesText === '-' ? 0 : Number(bytesText);
  const extra = m[7];
  if (extra === undefined || extra === '') return { ok: true, entry: { time, status, bytes } };
  if (extra === '-') return { ok: true, entry: { time, status, bytes, cache: '-' } };
  const upper = extra.toUpperCase();
  if (CACHE_SET.has(upper)) return { ok: true, entry: { time, status, bytes, cache: upper as CacheStatus } };
  // A word that is no cache status (`HTI`) is a broken cache field; anything else (`0.005`, an
  // address) is some other custom field a log format appended: the line has no cache field.
  if (/^[A-Za-z]+$/.test(extra)) return { ok: false, kind: 'cache' };
  return { ok: true, entry: { time, status, bytes } };
}
