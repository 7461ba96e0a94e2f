/**
 * A wire value as the text of its CSV cell (before quoting): the plain definition every cell
 * follows. The stored-value fast path (csv-columns.ts) must give exactly this.
 */
import type { FieldDef } from '@wanxiang/core';
import { inert } from './csv-text.js';
import { yuanText } from './stored-text.js';
import { CHINA_OFFSET_MS } from './time-format.js';

/** `YYYY-MM-DD HH:mm` in China time of a wire datetime (ISO text), '' for none. */
export function chinaTime(iso: unknown): string {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return '';
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

function optionLabel(field: FieldDef, value: unknown): string {
  if (field.type !== 'enum' && field.type !== 'enumList') return String(value);
  return field.options.find((o) => o.value === value)?.label ?? String(value);
}

export function cellText(field: FieldDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'money':
      return yuanText(Number(value));
    case 'datetime':
      return chinaTime(value);
    case 'boolean':
      return value ? '是' : '否';
    case 'enum':
      return optionLabel(field, value);
    case 'enumList':
      return Array.isArray(value) ? value.map((v) => optionLabel(field, v)).join('、') : '';
    case 'stringList':
      return Array.isArray(value) ? inert(value.map(String).join('、')) : '';
    case 'relationList':
      return Array.isArray(value) ? value.join('、') : '';
    case 'json':
      return JSON.stringify(value);
    case 'string':
    case 'text':
    case 'markdown':
      return inert(String(value));
    default:
      return String(value);
  }
}
