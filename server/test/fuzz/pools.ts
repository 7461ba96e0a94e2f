/**
 * Real values for path parameters, learnt from the answers: every 2xx answer's JSON is walked
 * and its `id`s kept under the path prefix that answered (`/api/admin/stores`), other short
 * values under their field name (`ticket`, `number`, `code`, `key`). So `{id}` is often a row
 * that exists, whatever the resource, with nothing listed by hand.
 *
 * The accounts the fuzz acts as are never offered: deleting or disabling the admin's own
 * account would end the run, not find a bug (admin changing another account is fuzzed).
 */
import type { Pools } from './arbitraries.js';

const KEEP = 40;
const VALUE_FIELDS = new Set(['ticket', 'number', 'code', 'key', 'page', 'action']);

export class AnswerPools implements Pools {
  private readonly idsByPrefix = new Map<string, number[]>();
  private readonly valuesByName = new Map<string, (string | number)[]>();

  constructor(private readonly protectedUsernames: readonly string[]) {}

  ids(prefix: string): number[] {
    return this.idsByPrefix.get(prefix) ?? [];
  }

  values(name: string): (string | number)[] {
    return this.valuesByName.get(name) ?? [];
  }

  /** Learns from a 2xx answer of `template` (the document's path). */
  learn(template: string, body: unknown): void {
    const brace = template.indexOf('{');
    const prefix = (brace < 0 ? template : template.slice(0, brace)).replace(/\/$/, '');
    const stack: unknown[] = [body];
    let seen = 0;
    while (stack.length > 0 && seen++ < 5_000) {
      const value = stack.pop();
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        stack.push(...value);
        continue;
      }
      const record = value as Record<string, unknown>;
      const isProtected =
        typeof record.username === 'string' && this.protectedUsernames.includes(record.username);
      for (const [key, v] of Object.entries(record)) {
        if (key === 'id' && typeof v === 'number' && !isProtected) add(this.idsByPrefix, prefix, v);
        else if (
          VALUE_FIELDS.has(key) &&
          (typeof v === 'string' || typeof v === 'number') &&
          String(v).length < 200
        ) {
          add(this.valuesByName, key, v);
        } else if (typeof v === 'object') stack.push(v);
      }
    }
  }
}

function add<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key) ?? [];
  if (list.includes(value)) return;
  list.push(value);
  if (list.length > KEEP) list.shift();
  map.set(key, list);
}
