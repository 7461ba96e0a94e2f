/**
 * The text normaliser the sensitive-word filter and the chat-bot rules share, so 加 微 信,
 * 加-微-信, 加\u200b微信 and ＷＸ/Wx read as 加微信 and wx.
 *
 * - full-width ASCII (U+FF01–U+FF5E) → half-width, the ideographic space → a space;
 * - ASCII letters case-folded (other scripts' case is left alone: a one-to-one fold keeps the
 *   position map simple, and the word lists are Chinese and Latin);
 * - whitespace, punctuation, symbols (emoji included) and invisible format characters
 *   (zero-width space/joiners, soft hyphen, BOM) are dropped: they are what people put between
 *   the characters of a word to get past a filter.
 *
 * Traditional ↔ simplified is out of scope: it needs a dictionary (OpenCC's is megabytes, too
 * big for the browser bundle core is part of); list both forms in the word list instead.
 *
 * `positions[i]` is the UTF-16 index in the original text of the normalised text's i-th code
 * unit, so a match [s, e) in the normalised text is [positions[s], positions[e-1] + 1 (or +2 for
 * a surrogate pair)) in the original.
 */

export interface NormalisedText {
  text: string;
  /** Original UTF-16 index of each code unit of `text`. */
  positions: number[];
}

// Dropped between characters: separators, punctuation, symbols, and format characters (Cf:
// zero-width space/joiners, soft hyphen, BOM, bidi marks).
const SKIPPED = /^[\p{Z}\p{P}\p{S}\p{Cc}\p{Cf}\s]$/u;

/** The normalised form of one code point, or '' when it is dropped. */
function foldCodePoint(cp: number, ch: string): string {
  // The common cases first: CJK ideographs, ASCII letters and digits.
  if (cp >= 0x4e00 && cp <= 0x9fff) return ch;
  if (cp < 0x80) {
    if (cp >= 0x61 && cp <= 0x7a) return ch;
    if (cp >= 0x30 && cp <= 0x39) return ch;
    if (cp >= 0x41 && cp <= 0x5a) return String.fromCharCode(cp + 32);
    return '';
  }
  if (cp >= 0xff01 && cp <= 0xff5e) return foldCodePoint(cp - 0xfee0, String.fromCharCode(cp - 0xfee0));
  if (SKIPPED.test(ch)) return '';
  return ch;
}

export function normaliseText(input: string): NormalisedText {
  let text = '';
  const positions: number[] = [];
  for (let i = 0; i < input.length; ) {
    const cp = input.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const ch = width === 1 ? input[i] : input.slice(i, i + 2);
    const folded = foldCodePoint(cp, ch as string);
    for (let k = 0; k < folded.length; k++) positions.push(i + Math.min(k, width - 1));
    text += folded;
    i += width;
  }
  return { text, positions };
}

/** The normalised form alone (word lists, chat-bot keywords). */
export function normalise(input: string): string {
  return normaliseText(input).text;
}

/** The original [start, end) of the normalised range [from, to) (to > from). */
export function originalRange(n: NormalisedText, from: number, to: number, original: string) {
  const start = n.positions[from] as number;
  const last = n.positions[to - 1] as number;
  const cp = original.codePointAt(last) as number;
  return { start, end: last + (cp > 0xffff ? 2 : 1) };
}
