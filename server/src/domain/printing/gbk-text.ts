/**
 * Text as a GBK receipt printer prints it. The printer is in Chinese mode (FS &): a byte below
 * 0x80 is one half-width cell, a two-byte GBK character one full-width cell (two columns). So the
 * width of a text is exactly the length of its GBK bytes, which iconv-lite gives — no table of
 * East Asian widths can disagree with what the printer does (`·` is one column by Unicode's
 * table and two on the printer). A character GBK does not have prints as `?`, one column, and is
 * counted so.
 *
 * 58 mm paper holds 32 columns of the 12×24 font, 80 mm 48.
 */
import iconv from 'iconv-lite';

export const GBK = 'gbk';

export type PaperWidth = 58 | 80;

export const COLUMNS: Record<PaperWidth, number> = { 58: 32, 80: 48 };

export function gbk(text: string): Buffer {
  return iconv.encode(text, GBK);
}

/** Columns the text takes on the printer. */
export function textWidth(text: string): number {
  return gbk(text).length;
}

/**
 * Text from a customer or an operator made safe to print: control characters (ESC, GS, FS …
 * would be printer commands) become spaces, ¥ (which GBK lacks) becomes the full-width ￥, and
 * whitespace runs collapse. Line breaks are dropped too: the layout decides where lines break.
 */
export function printable(text: string): string {
  return text
    .replace(/\u00a5/g, '\uffe5')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits text into lines of at most `width` columns, never inside a character. */
export function wrap(text: string, width: number): string[] {
  if (width < 2) throw new Error(`wrap width ${width} cannot hold a full-width character`);
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const char of text) {
    const w = textWidth(char);
    if (used + w > width) {
      lines.push(line.trimEnd());
      line = '';
      used = 0;
      if (char === ' ') continue;
    }
    line += char;
    used += w;
  }
  if (line.length > 0 || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** `text` padded with spaces to `width` columns (left-aligned, or right-aligned with `right`). */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'left' ? text + fill : fill + text;
}

/** A label on the left and a value on the right of one line of `width` columns. */
export function spread(label: string, value: string, width: number): string {
  const gap = width - textWidth(label) - textWidth(value);
  return gap >= 1 ? label + ' '.repeat(gap) + value : `${label} ${value}`;
}

/** Leading spaces that center `text` on a line of `width` columns. */
export function centered(text: string, width: number): string {
  const left = Math.max(0, Math.floor((width - textWidth(text)) / 2));
  return ' '.repeat(left) + text;
}
