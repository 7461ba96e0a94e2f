/**
 * A stored JSON column as the text `JSON.stringify` would write, without parsing it when the
 * stored text already is that (what the engine itself stores): a JSON cell is the largest of an
 * order's row, and parsing and writing it again cost more than the rest of the row.
 */

const MAX_DEPTH = 64;

/**
 * Characters that JSON.stringify may write differently than the text has them — escapes, raw
 * control characters (invalid in JSON anyway), surrogates (a lone one is escaped; pairs are rare
 * enough to take the slow way) — make the text "not certain". Checked once over the whole text,
 * natively; a string then simply ends at the next quote. Whitespace outside strings is refused
 * by the scan itself.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what it looks for
const NOT_PLAIN = /[\\\u0000-\u001f\ud800-\udfff]/;

/** End of the string starting at `i` (a `"`), or -1. */
function scanString(s: string, i: number): number {
  const end = s.indexOf('"', i + 1);
  return end < 0 ? -1 : end + 1;
}

/** End of a whole number written as JSON.stringify writes it (no fraction, exponent, -0). */
function scanInteger(s: string, i: number): number {
  let j = i;
  if (s.charCodeAt(j) === 0x2d) j++;
  const first = s.charCodeAt(j);
  if (first === 0x30) {
    if (j > i) return -1; // -0 is written 0
    j++;
  } else if (first >= 0x31 && first <= 0x39) {
    j++;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c < 0x30 || c > 0x39) break;
      j++;
    }
    // Beyond 15 digits a number may not survive the round trip.
    if (j - i > 15) return -1;
  } else {
    return -1;
  }
  const next = s.charCodeAt(j);
  return next === 0x2e || next === 0x65 || next === 0x45 ? -1 : j;
}

const keySpans: number[] = [];

/** Whether s[start, end) equals a key already in `keySpans` from `base` on. */
function seenKey(s: string, base: number, start: number, end: number): boolean {
  const length = end - start;
  for (let k = base; k < keySpans.length; k += 2) {
    const from = keySpans[k] as number;
    if ((keySpans[k + 1] as number) - from !== length) continue;
    let same = true;
    for (let c = 0; c < length; c++) {
      if (s.charCodeAt(from + c) !== s.charCodeAt(start + c)) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  return false;
}

function scanValue(s: string, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const c = s.charCodeAt(i);
  if (c === 0x22) return scanString(s, i);
  if (c === 0x7b) {
    // An object: keys once each, none that JavaScript would move first (integer-like keys).
    let j = i + 1;
    if (s.charCodeAt(j) === 0x7d) return j + 1;
    // The keys seen in this object, as [start, end) pairs in `keySpans` (no substrings made).
    const base = keySpans.length;
    try {
      for (;;) {
        if (s.charCodeAt(j) !== 0x22) return -1;
        const end = scanString(s, j);
        if (end < 0) return -1;
        const k0 = s.charCodeAt(j + 1);
        if ((k0 >= 0x30 && k0 <= 0x39) || seenKey(s, base, j + 1, end - 1)) return -1;
        keySpans.push(j + 1, end - 1);
        if (s.charCodeAt(end) !== 0x3a) return -1;
        j = scanValue(s, end + 1, depth + 1);
        if (j < 0) return -1;
        const sep = s.charCodeAt(j);
        if (sep === 0x7d) return j + 1;
        if (sep !== 0x2c) return -1;
        j++;
      }
    } finally {
      keySpans.length = base;
    }
  }
  if (c === 0x5b) {
    let j = i + 1;
    if (s.charCodeAt(j) === 0x5d) return j + 1;
    for (;;) {
      j = scanValue(s, j, depth + 1);
      if (j < 0) return -1;
      const sep = s.charCodeAt(j);
      if (sep === 0x5d) return j + 1;
      if (sep !== 0x2c) return -1;
      j++;
    }
  }
  if (c === 0x74) return s.startsWith('true', i) ? i + 4 : -1;
  if (c === 0x66) return s.startsWith('false', i) ? i + 5 : -1;
  if (c === 0x6e) return s.startsWith('null', i) ? i + 4 : -1;
  return scanInteger(s, i);
}

/**
 * True when `JSON.stringify(JSON.parse(text)) === text` is certain without parsing: valid JSON
 * with no whitespace, no escapes, whole numbers only, no repeated or integer-like object keys —
 * what the engine itself stores. False means "not certain" (parse it), never "invalid".
 */
export function isCanonicalJson(text: string): boolean {
  return text.length > 0 && !NOT_PLAIN.test(text) && scanValue(text, 0, 0) === text.length;
}

/** `JSON.stringify(value)` of a stored JSON column, '' when it holds null or is not JSON. */
export function storedJsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (text !== 'null' && isCanonicalJson(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return '';
  }
  return parsed === null ? '' : JSON.stringify(parsed);
}
