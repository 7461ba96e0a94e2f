/**
 * Money and times of stored values as cell text, fast: an export formats tens of millions of
 * cells, so these work on the stored value (the column as read from the database) with no `Date`
 * per value. Each gives exactly the text of the plain definition beside it
 * (test/resources/formats.test.ts compares them over many values).
 */
import { CHINA_OFFSET_MS, chinaMinuteText, MAX_DATE_MS } from './time-format.js';

const pad2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** Texts of the amounts up to ¥1 000, made once (most amounts of a shop are below). */
const SMALL_YUAN = 100_000;
const smallYuan: (string | undefined)[] = new Array(SMALL_YUAN);

/** `(fen / 100).toFixed(2)`: yuan with two decimals. */
export function yuanText(fen: number): string {
  if (fen >= 0 && fen < SMALL_YUAN && Number.isInteger(fen)) {
    let text = smallYuan[fen];
    if (text === undefined) {
      const cents = fen % 100;
      text = `${(fen - cents) / 100}.${pad2[cents]}`;
      smallYuan[fen] = text;
    }
    return text;
  }
  // Below 10^15 fen a whole number of fen divided by 100 rounds back to itself in toFixed(2).
  if (Number.isInteger(fen) && fen < 1e15 && fen > -1e15) {
    const negative = fen < 0;
    const abs = negative ? -fen : fen;
    const cents = abs % 100;
    return `${negative ? '-' : ''}${(abs - cents) / 100}.${pad2[cents]}`;
  }
  return (fen / 100).toFixed(2);
}

/**
 * `YYYY-MM-DD HH:mm` in China time of a stored datetime (epoch ms), '' for none: what
 * `chinaTime(isoOf(value))` — core's fieldText of the wire value — gives.
 */
export function chinaTimeOfStored(value: unknown): string {
  if (value === null || value === undefined) return '';
  const ms = Number(value);
  // A Date drops the fraction of a millisecond (toward zero) before the offset is added; a value
  // beyond a Date's range is no time, as on the wire (storage.ts isoOf), and so is one whose China
  // time would be.
  return Number.isFinite(ms) && ms >= -MAX_DATE_MS && ms + CHINA_OFFSET_MS <= MAX_DATE_MS
    ? chinaMinuteText(Math.trunc(ms))
    : '';
}
