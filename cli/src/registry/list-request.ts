/**
 * The flags of `list` and `export` as a list request. core's parseListQuery — the parser the
 * server runs — checks them first, so an unknown sort field or a bad enum value is a usage
 * error with core's Chinese message before anything is sent.
 */

import { type ListParams, parseListQuery, type ResourceDef, type SortKey } from '@wanxiang/core';
import { ExitCode } from '../errors';
import { type FieldFlag, filterQuery, givenFlags } from './field-flags';
import { invalidInput } from './problems';

export interface ListOptions {
  q?: string;
  sort?: string;
  page?: string;
  limit?: string;
}

export function listRequest(
  def: ResourceDef,
  flags: readonly FieldFlag[],
  options: ListOptions & Record<string, unknown>,
): ListParams {
  const raw: Record<string, string> = filterQuery(givenFlags(options, flags));
  for (const key of ['q', 'sort', 'page', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined) raw[key] = value;
  }
  const parsed = parseListQuery(def, raw);
  if (!parsed.ok) throw invalidInput('查询条件有误', parsed.fields, def.fields, flags, ExitCode.usage);

  const { value } = parsed;
  const filters: Record<string, unknown> = {};
  for (const filter of value.filters) {
    filters[filter.op === 'eq' ? filter.field : `${filter.field}_${filter.op}`] = filter.value;
  }
  return {
    ...(options.page !== undefined ? { page: value.page } : {}),
    ...(options.limit !== undefined ? { limit: value.limit } : {}),
    // The server's default order (the definition's) unless one was asked for.
    ...(options.sort !== undefined ? { sort: sortSpec(value.sort) } : {}),
    ...(value.q ? { q: value.q } : {}),
    filters,
  };
}

function sortSpec(keys: readonly SortKey[]): string {
  return keys.map((k) => `${k.desc ? '-' : ''}${k.field}`).join(',');
}
