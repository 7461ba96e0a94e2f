/** Plain-text layout for people: display widths and aligned label/value blocks. */

/**
 * Columns a string takes in a terminal: CJK and full-width characters take two, so labels like
 * 用户名 line up with the values after them.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** `label  value` lines with the values in one column. */
export function formatBlock(rows: ReadonlyArray<readonly [label: string, value: string]>): string {
  const width = Math.max(0, ...rows.map(([label]) => displayWidth(label)));
  return rows
    .map(([label, value]) => `${label}${' '.repeat(width - displayWidth(label))}  ${value}`)
    .join('\n')
    .concat('\n');
}
