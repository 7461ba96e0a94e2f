/**
 * The list query of API.md "Resources (admin)": paging (with the `pageIndex`/`pageSize`
 * aliases), sort, keyword `q`, field filters with `_gte`/`_lte`/`_in`. Parsed against the
 * registry so an unknown field is a 422 with a Chinese message and never reaches SQL; the server
 * and the clients share it.
 */
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, MAX_PAGE_SIZE } from '../config';
import type { ResourceDef } from './define';
import { type FieldDef, ORDERED_TYPES } from './fields';
import type { FieldErrors, Validation } from './schema';

export type FilterOp = 'eq' | 'gte' | 'lte' | 'in';

export interface Filter {
  field: string;
  op: FilterOp;
  /** Typed value; an array for `in`. */
  value: unknown;
}

export interface SortKey {
  field: string;
  desc: boolean;
}

export interface ListQuery {
  page: number;
  limit: number;
  sort: SortKey[];
  q: string | null;
  filters: Filter[];
  /** Keyset position from a previous answer's `page.nextCursor` (export, iterators). */
  cursor: string | null;
}

const RESERVED = new Set([
  'page',
  'limit',
  'pageIndex',
  'pageSize',
  'sort',
  'q',
  'cursor',
  'format',
  'withTotal',
]);
const Q_MAX = 100;

/** The server-managed fields every resource can be filtered and sorted by. */
export const SYSTEM_FIELD_DEFS: Record<string, FieldDef> = {
  id: { type: 'integer', label: 'ID', filterable: true, sortable: true },
  createdAt: { type: 'datetime', label: '创建时间', filterable: true, sortable: true, readOnly: true },
  updatedAt: { type: 'datetime', label: '更新时间', filterable: true, sortable: true, readOnly: true },
};

export function fieldOf(def: ResourceDef, name: string): FieldDef | undefined {
  return SYSTEM_FIELD_DEFS[name] ?? def.fields[name];
}

export function isFilterable(def: ResourceDef, name: string): boolean {
  const field = fieldOf(def, name);
  return !!field && !field.writeOnly && (!!field.filterable || name in SYSTEM_FIELD_DEFS);
}

export function isSortable(def: ResourceDef, name: string): boolean {
  const field = fieldOf(def, name);
  return !!field && !field.writeOnly && (!!field.sortable || name in SYSTEM_FIELD_DEFS);
}

export function searchableFields(def: ResourceDef): string[] {
  return Object.entries(def.fields)
    .filter(([, f]) => f.searchable && !f.writeOnly)
    .map(([name]) => name);
}

/** The default order: the definition's, else newest first. */
export function defaultSort(def: ResourceDef): SortKey[] {
  const spec = def.defaultSort ?? '-createdAt';
  return parseSortSpec(spec);
}

function parseSortSpec(spec: string): SortKey[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) =>
      s.startsWith('-') ? { field: s.slice(1), desc: true } : { field: s.replace(/^\+/, ''), desc: false },
    );
}

/**
 * A value typed in text (a query string, a CLI flag) as the field's wire value, or a Chinese
 * message saying why not.
 */
export function parseFieldText(
  field: FieldDef,
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const bad = { ok: false as const, message: `${field.label}的值无效：${text}` };
  switch (field.type) {
    case 'integer':
    case 'money':
    case 'relation':
    case 'relationList': {
      if (!/^-?\d+$/.test(text.trim())) return bad;
      return { ok: true, value: Number(text) };
    }
    case 'number': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? { ok: true, value: n } : bad;
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (['true', '1', 'yes', '是'].includes(t)) return { ok: true, value: true };
      if (['false', '0', 'no', '否'].includes(t)) return { ok: true, value: false };
      return bad;
    }
    case 'datetime': {
      const ms = Date.parse(text);
      return Number.isNaN(ms) ? bad : { ok: true, value: new Date(ms).toISOString() };
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? { ok: true, value: text } : bad;
    case 'enum':
    case 'enumList': {
      const option = field.options.find((o) => o.value === text || o.label === text);
      return option
        ? { ok: true, value: option.value }
        : {
            ok: false,
            message: `${field.label}必须是其中一个[${field.options.map((o) => o.value).join(',')}]`,
          };
    }
    default:
      return { ok: true, value: text };
  }
}

type RawQuery = Record<string, string | string[] | number | undefined>;

function first(v: string | string[] | number | undefined): string | undefined {
  if (Array.isArray(v)) return v[v.length - 1];
  return v === undefined ? undefined : String(v);
}

function positiveInt(text: string | undefined, fallback: number): number | null {
  if (text === undefined || text === '') return fallback;
  return /^\d+$/.test(text) ? Number(text) : null;
}

export function parseListQuery(def: ResourceDef, raw: RawQuery): Validation<ListQuery> {
  const fields: FieldErrors = {};

  const page = positiveInt(first(raw.page ?? raw.pageIndex), FIRST_PAGE);
  if (page === null || page < 1) fields.page = '页码须为不小于 1 的整数';
  const limit = positiveInt(first(raw.limit ?? raw.pageSize), DEFAULT_PAGE_SIZE);
  if (limit === null || limit < 1 || limit > MAX_PAGE_SIZE)
    fields.limit = `每页条数须在 1-${MAX_PAGE_SIZE} 之间`;

  let sort = defaultSort(def);
  const sortText = first(raw.sort);
  if (sortText) {
    sort = parseSortSpec(sortText);
    const bad = sort.find((k) => !isSortable(def, k.field));
    if (bad) fields.sort = `不支持按 ${bad.field} 排序`;
  }

  let q: string | null = first(raw.q)?.trim() || null;
  if (q !== null) {
    if (searchableFields(def).length === 0) fields.q = '此列表不支持关键字搜索';
    else if (q.length > Q_MAX) fields.q = `关键字最多${Q_MAX}个字符`;
  }
  if (fields.q) q = null;

  const filters: Filter[] = [];
  for (const [key, rawValue] of Object.entries(raw)) {
    if (RESERVED.has(key) || rawValue === undefined) continue;
    const text = first(rawValue) ?? '';
    // `s`: a key may hold a line break (`?a%0Ab=1`); without it the pattern failed to match.
    const match = /^(.*?)(?:_(gte|lte|in))?$/s.exec(key) as RegExpExecArray;
    const name = match[1] as string;
    const op = (match[2] ?? 'eq') as FilterOp;
    const field = fieldOf(def, name);
    if (!field || !isFilterable(def, name)) {
      fields[key] = `不支持的筛选条件 ${key}`;
      continue;
    }
    if ((op === 'gte' || op === 'lte') && !ORDERED_TYPES.has(field.type)) {
      fields[key] = `${field.label}不支持范围筛选`;
      continue;
    }
    if (op === 'in') {
      const values: unknown[] = [];
      for (const part of text.split(',').filter((p) => p !== '')) {
        const parsed = parseFieldText(field, part);
        if (!parsed.ok) {
          fields[key] = parsed.message;
          break;
        }
        values.push(parsed.value);
      }
      if (!fields[key]) filters.push({ field: name, op, value: values });
      continue;
    }
    if (text === '') continue;
    const parsed = parseFieldText(field, text);
    if (!parsed.ok) fields[key] = parsed.message;
    else filters.push({ field: name, op, value: parsed.value });
  }

  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    value: {
      page: page as number,
      limit: limit as number,
      sort,
      q,
      filters,
      cursor: first(raw.cursor) || null,
    },
  };
}

/** What a client asks for; `filters` keys may carry `_gte`/`_lte`/`_in`. */
export interface ListParams {
  page?: number;
  limit?: number;
  sort?: string;
  q?: string;
  filters?: Record<string, unknown>;
  cursor?: string;
}

/** ListParams → query-string values (arrays joined for `_in`, empties dropped). */
export function listParamsToQuery(params: ListParams): Record<string, string> {
  const out: Record<string, string> = {};
  if (params.page !== undefined) out.page = String(params.page);
  if (params.limit !== undefined) out.limit = String(params.limit);
  if (params.sort) out.sort = params.sort;
  if (params.q) out.q = params.q;
  if (params.cursor) out.cursor = params.cursor;
  for (const [key, value] of Object.entries(params.filters ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}
