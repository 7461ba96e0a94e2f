/** A cell's text as CSV (RFC 4180 quoting) that a spreadsheet shows rather than runs. */

/** Whether a CSV cell must be quoted (RFC 4180): it holds a quote, comma or line break. */
export function needsQuotes(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x2c || c === 0x0a || c === 0x0d) return true;
  }
  return false;
}

/** Quoted per RFC 4180 when the text holds a quote, comma or line break. */
export function csvCell(text: string): string {
  return needsQuotes(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Text a spreadsheet would evaluate (=, +, -, @, tab, CR first) is kept as text with a `'`. */
export function inert(text: string): string {
  const c = text.charCodeAt(0);
  return c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d ? `'${text}` : text;
}
