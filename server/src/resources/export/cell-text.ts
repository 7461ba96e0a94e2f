/**
 * A wire value as the text of its CSV cell (before quoting): core's `fieldText` for a sheet, the
 * one rule every shell shows a value by. The stored-value fast path (csv-columns.ts) must give
 * exactly this; test/resources/field-text.test.ts holds it to that for every field type.
 *
 * The CSV stays a sheet, not a screen, as the export has always documented (../README.md,
 * "Export"): an amount is plain yuan with two decimals (`1234.50`, no ¥ or thousands separators,
 * so Excel sums the column), an integer has no unit, and an empty value is an empty cell. Two
 * things are the CSV's own: a relation has an id column beside its name column (`idsText`), and
 * text a spreadsheet would run as a formula is kept inert.
 */
import { type FieldDef, fieldText, type RelatedNames, readsAsLines } from '@wanxiang/core';
import { inert } from './csv-text.js';

/** Types whose text is the user's own (so it may start like a formula). */
const FREE_TEXT = new Set<FieldDef['type']>(['string', 'text', 'markdown', 'stringList']);

/** Whether a field's text may start with the user's own words: free text, and goods lines (a name first). */
export const userText = (field: FieldDef): boolean => FREE_TEXT.has(field.type) || readsAsLines(field);

const SHEET = { for: 'sheet' } as const;
const TIME: FieldDef = { type: 'datetime', label: '' };

/** `YYYY-MM-DD HH:mm` in China time of a wire datetime (ISO text), '' for none. */
export function chinaTime(iso: unknown): string {
  return typeof iso === 'string' ? fieldText(TIME, iso, SHEET) : '';
}

/** The text of a field's own column. */
export function cellText(field: FieldDef, value: unknown): string {
  if (field.type === 'relation' || field.type === 'relationList') return idsText(value);
  const text = fieldText(field, value, SHEET);
  return userText(field) ? inert(text) : text;
}

/** A relation's id column: the id, or a relation list's ids joined with 、. */
export function idsText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join('、') : String(value);
}

/** A relation's name column: the related rows' names (a name may be the user's own text). */
export function namesText(field: FieldDef, value: unknown, names: RelatedNames | undefined): string {
  return inert(fieldText(field, value, names ? { for: 'sheet', relations: names } : SHEET));
}
