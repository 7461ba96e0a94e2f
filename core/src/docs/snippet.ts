/**
 * Highlighted snippets of the document search. The server builds them as HTML-safe strings
 * (text escaped, hits in <mark>); a screen turns one back into segments to render as text and
 * <mark> elements, never as HTML.
 */
import { normalizeText } from './tokenize';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

const UNESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

export function unescapeHtml(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => UNESCAPES[name] as string);
}

export interface SnippetSegment {
  text: string;
  mark: boolean;
}

/** `a <mark>b</mark> c` → [{a}, {b, mark}, {c}]; anything else in it stays text. */
export function parseSnippet(html: string): SnippetSegment[] {
  const out: SnippetSegment[] = [];
  const parts = html.split(/<mark>|<\/mark>/);
  parts.forEach((part, i) => {
    if (part) out.push({ text: unescapeHtml(part), mark: i % 2 === 1 });
  });
  return out;
}

/**
 * Where in `text` the needles occur (case- and width-insensitively), as [start, end) ranges
 * of `text`, merged. NFKC keeps the length of CJK and ASCII text, which is all we mark.
 */
export function findHits(text: string, needles: readonly string[]): [number, number][] {
  const normalized = normalizeText(text);
  if (normalized.length !== text.length) return [];
  const ranges: [number, number][] = [];
  for (const needle of needles) {
    if (!needle) continue;
    let at = normalized.indexOf(needle);
    while (at >= 0) {
      ranges.push([at, at + needle.length]);
      at = normalized.indexOf(needle, at + needle.length);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** `text` escaped, with the given ranges wrapped in <mark>. */
export function markRanges(text: string, ranges: readonly [number, number][]): string {
  let out = '';
  let pos = 0;
  for (const [start, end] of ranges) {
    if (start < pos) continue;
    out += `${escapeHtml(text.slice(pos, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    pos = end;
  }
  return out + escapeHtml(text.slice(pos));
}

/**
 * A window of about `width` characters of `text` around its first hit, escaped, hits marked;
 * '…' where cut. Null when no needle occurs.
 */
export function snippetOf(text: string, needles: readonly string[], width = 90): string | null {
  const hits = findHits(text, needles);
  const first = hits[0];
  if (!first) return null;
  const start = Math.max(0, first[0] - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  const inside = hits
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]) => [s - start, e - start] as [number, number]);
  const body = markRanges(text.slice(start, end).replace(/\s/g, ' '), inside);
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
