/** Money is integer fen (分) on the wire (API.md); people see ¥ yuan with two decimals. */

/** 1230 → `¥12.30`; -50 → `-¥0.50`; null → `-`. */
export function formatMoney(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '-';
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}¥${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1230 → `12.30` (for CSV cells and number inputs). */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `12.3` / `"12.30"` → 1230, exact (no float drift); null when not a yuan amount. */
export function yuanToFen(yuan: number | string): number | null {
  const text = typeof yuan === 'number' ? String(yuan) : yuan.trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const fen = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -fen : fen;
}
