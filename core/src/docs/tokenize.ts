/**
 * The document search's analyzer, shared by the server's index and query (and the UI's
 * highlighting), after Lucene's CJK analyzer: text is NFKC-normalized and lowercased; runs of
 * CJK characters give their bigrams plus every single character (so a one-character query
 * such as 法 has a term to look up); runs of Latin letters and digits give one word each.
 * Everything else separates runs. The same terms on SQLite and PostgreSQL, whatever their
 * collation or full-text support.
 */

/** Han (incl. extension A and compatibility ideographs), kana, Hangul. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const RUNS = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[\p{L}\p{N}]+/gu;

/** A Latin/digit word longer than this is cut (no one searches for a 200-character token). */
export const MAX_WORD_LENGTH = 40;

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The runs of a normalized text: CJK runs and Latin/digit words, in order. */
export function textRuns(normalized: string): string[] {
  return normalized.match(RUNS) ?? [];
}

export function isCjkRun(run: string): boolean {
  return CJK.test(run.charAt(0));
}

/**
 * Every index term of a text with its number of occurrences: CJK unigrams and bigrams, words.
 * `into` lets several fields add to one map.
 */
export function indexTerms(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  for (const run of textRuns(normalizeText(text))) {
    if (isCjkRun(run)) {
      const chars = Array.from(run);
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i] as string;
        into.set(c, (into.get(c) ?? 0) + 1);
        if (i + 1 < chars.length) {
          const gram = c + (chars[i + 1] as string);
          into.set(gram, (into.get(gram) ?? 0) + 1);
        }
      }
    } else {
      const word = run.slice(0, MAX_WORD_LENGTH);
      into.set(word, (into.get(word) ?? 0) + 1);
    }
  }
  return into;
}

export interface ParsedQuery {
  /** The normalized runs the user typed (a phrase each), in order, without repeats. */
  phrases: string[];
  /** The distinct terms a matching document must all have. */
  terms: string[];
}

/** At most this many runs of a query count (a pasted paragraph is not a query). */
export const MAX_QUERY_PHRASES = 8;

/**
 * A query's terms: a one-character CJK run is its unigram, a longer run its consecutive
 * bigrams (all must be present: the phrase), a Latin/digit run its word.
 */
export function parseQuery(q: string): ParsedQuery {
  const phrases = [...new Set(textRuns(normalizeText(q)))].slice(0, MAX_QUERY_PHRASES);
  const terms = new Set<string>();
  for (const run of phrases) {
    if (!isCjkRun(run)) {
      terms.add(run.slice(0, MAX_WORD_LENGTH));
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) terms.add(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) terms.add((chars[i] as string) + (chars[i + 1] as string));
  }
  return { phrases, terms: [...terms] };
}
