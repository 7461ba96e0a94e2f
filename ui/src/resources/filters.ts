/**
 * The filter form of a list, derived from the registry: which fields it offers and how each
 * control's value maps to the list query (`field`, `field_gte`/`field_lte`). Money is entered in
 * yuan and sent in fen. A date range's control holds the query texts themselves (its picker, loaded
 * on demand, converts), so this module and the list need no date library.
 */
import {
  type FieldDef,
  fenToYuan,
  isFilterable,
  type ResourceDef,
  SYSTEM_FIELD_DEFS,
  yuanToFen,
} from '@wanxiang/core';

export type FilterKind = 'select' | 'relation' | 'text' | 'numberRange' | 'dateRange';

export interface FilterDef {
  /** The field's name; also the form item's name. */
  name: string;
  field: FieldDef;
  kind: FilterKind;
}

function kindOf(field: FieldDef): FilterKind | null {
  switch (field.type) {
    case 'enum':
    case 'enumList':
    case 'boolean':
      return 'select';
    case 'relation':
      return 'relation';
    case 'string':
      return 'text';
    case 'integer':
    case 'number':
    case 'money':
      return 'numberRange';
    case 'datetime':
    case 'date':
      return 'dateRange';
    default:
      return null;
  }
}

/** The definition's filterable fields, then 创建时间 as a range when no date filter is there yet. */
export function filtersOf(def: ResourceDef): FilterDef[] {
  const out: FilterDef[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    if (!field.filterable || !isFilterable(def, name)) continue;
    const kind = kindOf(field);
    if (kind) out.push({ name, field, kind });
  }
  if (!out.some((f) => f.kind === 'dateRange')) {
    out.push({ name: 'createdAt', field: SYSTEM_FIELD_DEFS.createdAt as FieldDef, kind: 'dateRange' });
  }
  return out;
}

type FormValues = Record<string, unknown>;

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

function numberToQuery(field: FieldDef, value: unknown): string | undefined {
  if (isBlank(value)) return undefined;
  if (field.type === 'money') {
    const fen = yuanToFen(String(value));
    return fen === null ? undefined : String(fen);
  }
  return String(value);
}

function numberFromQuery(field: FieldDef, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  return field.type === 'money' ? Number(fenToYuan(n)) : n;
}

/** The form's values → filter query keys (blank controls leave their keys out). */
export function filtersToQuery(defs: readonly FilterDef[], values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, field, kind } of defs) {
    const value = values[name];
    switch (kind) {
      case 'numberRange': {
        const [min, max] = Array.isArray(value) ? value : [];
        const gte = numberToQuery(field, min);
        const lte = numberToQuery(field, max);
        if (gte !== undefined) out[`${name}_gte`] = gte;
        if (lte !== undefined) out[`${name}_lte`] = lte;
        break;
      }
      case 'dateRange': {
        const [from, to] = Array.isArray(value) ? (value as (string | undefined)[]) : [];
        if (from) out[`${name}_gte`] = from;
        if (to) out[`${name}_lte`] = to;
        break;
      }
      default:
        if (!isBlank(value)) out[name] = String(value);
    }
  }
  return out;
}

/** Filter query keys → the form's values (what the URL restores into the controls). */
export function queryToFilters(defs: readonly FilterDef[], query: Record<string, string>): FormValues {
  const out: FormValues = {};
  for (const { name, field, kind } of defs) {
    switch (kind) {
      case 'numberRange': {
        const min = numberFromQuery(field, query[`${name}_gte`]);
        const max = numberFromQuery(field, query[`${name}_lte`]);
        if (min !== undefined || max !== undefined) out[name] = [min, max];
        break;
      }
      case 'dateRange': {
        const from = query[`${name}_gte`];
        const to = query[`${name}_lte`];
        if (from || to) out[name] = [from, to];
        break;
      }
      case 'relation':
      case 'select': {
        const text = query[name];
        if (text === undefined) break;
        if (field.type === 'relation') out[name] = Number(text);
        else if (field.type === 'boolean') out[name] = text === 'true' ? 'true' : 'false';
        else out[name] = text;
        break;
      }
      default:
        if (query[name] !== undefined) out[name] = query[name];
    }
  }
  return out;
}

/** How many filters of the form are set (shown on the collapsed filter bar). */
export function activeFilterCount(defs: readonly FilterDef[], query: Record<string, string>): number {
  return defs.filter(({ name }) => name in query || `${name}_gte` in query || `${name}_lte` in query).length;
}
