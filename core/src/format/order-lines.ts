/**
 * An order's (or a refund's) lines as people read them — `牛肉面（大碗）×2 ¥56.00；奶茶 ×1 ¥18.00`
 * — rather than the JSON the row keeps. `fieldText` reads the `orderItems` and `refundItems` JSON
 * shapes through these, so the admin's cells and details, the CLI and the CSV export say the same.
 *
 * A line's amount is what its units cost before discounts (unit price × qty), as a receipt prints
 * it: the discounts are the order's own figures (满减, 优惠券, 积分) beside the lines. A refund
 * line's amount is the money that line returned.
 */
import { formatMoney } from './money';

/** The JSON shapes that read as lines (and how), for fieldText and the CSV export's fast path. */
export const LINE_SHAPES = {
  orderItems: (items: unknown, multiline?: boolean) => orderLinesText(items, multiline),
  refundItems: (items: unknown, multiline?: boolean) => refundLinesText(items, multiline),
} as const satisfies Record<string, (items: unknown, multiline?: boolean) => string | null>;

/** Whether a field's JSON reads as lines of goods (its text then starts with a goods name). */
export function readsAsLines(field: { type: string; shape?: string }): boolean {
  return field.type === 'json' && field.shape !== undefined && field.shape in LINE_SHAPES;
}

/** Between lines on one line (a cell, a CSV cell); a detail view breaks lines instead. */
export const LINE_SEPARATOR = '；';

type Loose = Record<string, unknown>;

const isLine = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `牛肉面（大碗）`: the goods' name with its SKU; `商品#12` when the line has no name. */
export function lineName(line: { name?: unknown; sku?: unknown; goodsId?: unknown }): string {
  const name =
    typeof line.name === 'string' && line.name !== '' ? line.name : `商品#${String(line.goodsId ?? '?')}`;
  return typeof line.sku === 'string' && line.sku !== '' ? `${name}（${line.sku}）` : name;
}

/** `牛肉面 ×2`, `奶茶（大杯）×1`: a full-width bracket needs no space before the ×. */
const times = (name: string, qty: number | null) => `${name}${name.endsWith('）') ? '' : ' '}×${qty ?? '?'}`;

function join(parts: string[], multiline: boolean): string {
  return parts.join(multiline ? '\n' : LINE_SEPARATOR);
}

/**
 * An order's items: `name（sku）×qty ¥amount`, and `（已退 n）` for units refunded. Null when the
 * value is not a list of lines (the caller shows it as JSON).
 */
export function orderLinesText(items: unknown, multiline = false): string | null {
  if (!Array.isArray(items) || !items.every(isLine)) return null;
  const parts = items.map((line) => {
    const qty = int(line.qty);
    const unit = int(line.unitPriceFen);
    const refunded = int(line.refundedQty) ?? 0;
    const amount = qty !== null && unit !== null ? ` ${formatMoney(unit * qty)}` : '';
    return `${times(lineName(line), qty)}${amount}${refunded > 0 ? `（已退 ${refunded}）` : ''}`;
  });
  return join(parts, multiline);
}

/** A refund's items: `name（sku）×qty ¥amount returned`. Null when not a list of lines. */
export function refundLinesText(items: unknown, multiline = false): string | null {
  if (!Array.isArray(items) || !items.every(isLine)) return null;
  const parts = items.map((line) => {
    const qty = int(line.qty);
    const amount = int(line.amountFen);
    return `${times(lineName(line), qty)}${amount !== null ? ` ${formatMoney(amount)}` : ''}`;
  });
  return join(parts, multiline);
}
