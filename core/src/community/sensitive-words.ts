/**
 * The sensitive-word filter: an Aho-Corasick automaton (@monyone/aho-corasick's double-array
 * build — pure TypeScript, no dependencies, so it runs in the browser too) over the normalised
 * forms of a word list, run on the normalised text (normalise.ts), with each hit mapped back to
 * the canonical word of the list and its position in the original text.
 *
 * Build it once per list (10 000 words take a few hundred ms) and reuse it: a 2 000-character
 * post is then well under a millisecond (bench/sensitive-words.ts).
 *
 * Because separators are dropped before matching, a word can also match across them where no
 * one meant it ("加。微信" is flagged — intended — but so is a Latin word inside a longer one).
 * That is the usual trade of such filters; a moderator approves a false hit in bbs/review.
 */
import { AhoCorasick } from '@monyone/aho-corasick/fast';
import { normalise, normaliseText, originalRange } from './normalise';

export interface SensitiveWordEntry {
  word: string;
  category?: string | null;
}

export interface SensitiveHit {
  /** The list's word as written there (加微信 for a hit on 加 微 信). */
  word: string;
  category: string | null;
  /** UTF-16 range [start, end) in the text as given. */
  start: number;
  end: number;
}

export class SensitiveWordFilter {
  private readonly matcher: AhoCorasick | null;
  /** Normalised form → the list's entry (the first one listed wins on duplicates). */
  private readonly canonical = new Map<string, { word: string; category: string | null }>();

  constructor(entries: readonly (SensitiveWordEntry | string)[]) {
    for (const e of entries) {
      const entry = typeof e === 'string' ? { word: e } : e;
      const key = normalise(entry.word);
      // A word of nothing but punctuation would match everywhere: skipped.
      if (key === '' || this.canonical.has(key)) continue;
      this.canonical.set(key, { word: entry.word.trim(), category: entry.category ?? null });
    }
    this.matcher = this.canonical.size > 0 ? new AhoCorasick([...this.canonical.keys()]) : null;
  }

  /** How many distinct (normalised) words the automaton holds. */
  get size(): number {
    return this.canonical.size;
  }

  /** Every hit, in order of position (overlapping hits included: 赌博 and 赌博网 both). */
  find(text: string): SensitiveHit[] {
    if (!this.matcher || text === '') return [];
    const n = normaliseText(text);
    if (n.text === '') return [];
    const hits: SensitiveHit[] = [];
    for (const m of this.matcher.matchInText(n.text)) {
      const entry = this.canonical.get(m.keyword);
      if (!entry) continue;
      hits.push({ ...entry, ...originalRange(n, m.begin, m.end, text) });
    }
    return hits.sort((a, b) => a.start - b.start || b.end - a.end);
  }

  /** The distinct canonical words found, in order of first appearance. */
  words(text: string): string[] {
    return [...new Set(this.find(text).map((h) => h.word))];
  }
}

export interface HighlightSegment {
  text: string;
  /** The list's words this segment is part of (empty: plain text). */
  words: string[];
}

/**
 * `text` cut into plain and flagged segments for display (overlapping hits merged), so the
 * review screen marks 加 微 信 in the text as written.
 */
export function highlightSegments(text: string, hits: readonly SensitiveHit[]): HighlightSegment[] {
  const sorted = [...hits].sort((a, b) => a.start - b.start);
  const out: HighlightSegment[] = [];
  let at = 0;
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i] as SensitiveHit;
    let end = first.end;
    const words = [first.word];
    i++;
    while (i < sorted.length && (sorted[i] as SensitiveHit).start < end) {
      const next = sorted[i] as SensitiveHit;
      end = Math.max(end, next.end);
      if (!words.includes(next.word)) words.push(next.word);
      i++;
    }
    const start = Math.max(first.start, at);
    if (start > at) out.push({ text: text.slice(at, start), words: [] });
    if (end > start) out.push({ text: text.slice(start, end), words });
    at = Math.max(at, end);
  }
  if (at < text.length) out.push({ text: text.slice(at), words: [] });
  return out;
}

/** The words of a bulk import: one a line, trimmed, blank lines and repeats dropped. */
export function parseWordLines(input: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of input.split(/\r?\n/)) {
    const word = line.trim();
    const key = normalise(word);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}
