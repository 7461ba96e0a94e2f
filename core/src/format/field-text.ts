/**
 * How a field's value reads to people, once for every shell: the admin table's cells and detail
 * lines (ui), the CLI's tables and `get` (cli), the CSV export (server). A shell may put a tag, a
 * link or an image around the text; the text itself comes from here.
 *
 * - enum: its option's label (the value itself when no option has it);
 * - boolean: 是 / 否;
 * - lists (enumList, stringList, relationList): items joined with 、;
 * - money (integer fen): `¥1,234.50` on a screen, `1234.50` in a sheet;
 * - datetime: `YYYY-MM-DD HH:mm` in China Standard Time (UTC+8), whatever the host's zone;
 *   date: `YYYY-MM-DD` as stored;
 * - relation, relationList: the related rows' display names (ctx.relations);
 * - json: an order's or a refund's lines (shapes `orderItems`, `refundItems`) as lines —
 *   `牛肉面（大碗）×2 ¥56.00；奶茶 ×1 ¥18.00`, one a line with `multiline` (order-lines.ts); any
 *   other JSON compact (pretty with `multiline`);
 * - a write-only field (a secret): `******` when set — never its value;
 * - an empty value (null, missing, '', an empty list): `-` on a screen, '' in a sheet.
 *
 * A sheet (`for: 'sheet'`, the CSV export) differs from a screen only where a spreadsheet computes
 * with the cell: an amount is a plain decimal (no ¥, no thousands separators, so a column sums),
 * an integer has no unit, and an empty cell is empty. A related row with no name reads `#id` on a
 * screen and '' in a sheet, whose id column stands beside the name.
 */
import type { FieldDef } from '../resources/fields';
import { chinaDateTime } from './date';
import { formatMoney } from './money';
import { LINE_SHAPES } from './order-lines';

/** Display names of related rows by id: a list answer's `relations[field]`, or a Map of them. */
export type RelatedNames = Readonly<Record<string, string>> | ReadonlyMap<unknown, string | null>;

export interface FieldTextContext {
  /** The names of the rows a relation or relation list refers to. */
  relations?: RelatedNames;
  /** Where the text goes: a screen (the default) or a sheet (CSV). */
  for?: 'screen' | 'sheet';
  /** A detail view: long text keeps its line breaks, JSON is pretty-printed. */
  multiline?: boolean;
}

/** What a secret reads when one is set (the server's wire value for a write-only field). */
export const SECRET_MASK = '******';
/** An empty value on a screen. */
export const EMPTY_TEXT = '-';

const LIST_TYPES: ReadonlySet<FieldDef['type']> = new Set(['enumList', 'stringList', 'relationList']);

/** An enum's (or enum list item's) label; the value itself when no option has it. */
export function enumLabel(field: FieldDef, value: unknown): string {
  if (field.type !== 'enum' && field.type !== 'enumList') return String(value);
  return field.options.find((o) => o.value === value)?.label ?? String(value);
}

/** Whether the value reads as empty: none, '', or a list with no items (or no list at all). */
export function isEmptyValue(field: FieldDef, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  // A JSON field's '' is a value (a JSON string), not an absent one.
  if (value === '') return field.type !== 'json';
  return LIST_TYPES.has(field.type) && (!Array.isArray(value) || value.length === 0);
}

function relatedName(relations: RelatedNames | undefined, id: unknown, sheet: boolean): string {
  const name =
    relations instanceof Map
      ? (relations as ReadonlyMap<unknown, string | null>).get(id)
      : (relations as Readonly<Record<string, string>> | undefined)?.[String(id)];
  return name ?? (sheet ? '' : `#${String(id)}`);
}

/**
 * The items of a list field's value as people read them (a shell may show each as a tag);
 * `fieldText` joins them with 、. Empty for a value that is not a list.
 */
export function listItemTexts(field: FieldDef, value: unknown, ctx: FieldTextContext = {}): string[] {
  if (!Array.isArray(value)) return [];
  switch (field.type) {
    case 'enumList':
      return value.map((v) => enumLabel(field, v));
    case 'relationList':
      return value.map((id) => relatedName(ctx.relations, id, ctx.for === 'sheet'));
    default:
      return value.map(String);
  }
}

/** `field`'s `value` (its wire value: ids, fen, ISO times) as people read it. */
export function fieldText(field: FieldDef, value: unknown, ctx: FieldTextContext = {}): string {
  const sheet = ctx.for === 'sheet';
  const empty = sheet ? '' : EMPTY_TEXT;
  if (isEmptyValue(field, value)) return empty;
  if (field.writeOnly) return SECRET_MASK;
  switch (field.type) {
    case 'enum':
      return enumLabel(field, value);
    case 'enumList':
    case 'stringList':
    case 'relationList':
      return listItemTexts(field, value, ctx).join('、');
    case 'relation':
      return relatedName(ctx.relations, value, sheet);
    case 'boolean':
      return value ? '是' : '否';
    case 'money':
      if (typeof value !== 'number') return String(value);
      // `toFixed` of yuan: what the export's fast path (integer arithmetic) is held equal to.
      return sheet ? (value / 100).toFixed(2) : formatMoney(value);
    case 'datetime':
      return (typeof value === 'string' || typeof value === 'number' ? chinaDateTime(value) : null) ?? empty;
    case 'integer':
    case 'number':
      return !sheet && field.unit ? `${String(value)} ${field.unit}` : String(value);
    case 'json': {
      const read = field.shape ? LINE_SHAPES[field.shape as keyof typeof LINE_SHAPES] : undefined;
      const lines = read ? read(value, ctx.multiline) : null;
      if (lines !== null) return lines === '' ? empty : lines;
      return ctx.multiline ? JSON.stringify(value, null, 2) : JSON.stringify(value);
    }
    default: {
      const text = String(value);
      // One line on a screen: a list cell or a table row; a sheet quotes line breaks.
      return sheet || ctx.multiline ? text : text.replace(/\s*[\r\n]+\s*/g, ' ');
    }
  }
}
