/**
 * List totals without a COUNT per request (QUALITY.md: the list with its total within 2× of the
 * list without it; a COUNT over a million matching rows costs ~47 lists).
 *
 * A total is cached per (resource, filters, keyword) and is valid while
 * - the resource's version is the one it was counted at: every write through the engine (create,
 *   update, delete, action, bulk insert) bumps the version right after its transaction commits,
 *   so a count that may have missed the write is never served again in this process;
 * - and it is younger than the TTL (10 s): writes made by another server process (several
 *   processes on one PostgreSQL) or outside the engine show within that time.
 *
 * Concurrent requests for the same uncached total share one COUNT. A total is also free whenever
 * the page is not full: it is the offset plus the rows on the page.
 *
 * State hangs off the database object, so every engine instance and `insertRows` on the same
 * connection share it.
 */
import type { ListQuery } from '@wanxiang/core';
import { dataEpoch } from '../db/data-epoch.js';

export const COUNT_TTL_MS = 10_000;
const MAX_ENTRIES = 5_000;

interface Entry {
  version: number;
  at: number;
  total: Promise<unknown>;
}

class CountState {
  readonly versions = new Map<string, number>();
  readonly entries = new Map<string, Entry>();
}

const states = new WeakMap<object, CountState>();

function stateOf(db: object): CountState {
  let state = states.get(db);
  if (!state) {
    state = new CountState();
    states.set(db, state);
  }
  return state;
}

export function versionOf(db: object, resource: string): number {
  // A restore replaced every table (db/data-epoch.ts): no total or name counted before it matches.
  return dataEpoch() * 2 ** 32 + (stateOf(db).versions.get(resource) ?? 0);
}

/** Called after every committed write to a resource. */
export function bumpVersion(db: object, resource: string): void {
  const state = stateOf(db);
  state.versions.set(resource, (state.versions.get(resource) ?? 0) + 1);
}

/** The cache key of a query's matching set: filters in a canonical order, and the keyword. */
export function countKey(resource: string, query: Pick<ListQuery, 'filters' | 'q'>): string {
  const filters = query.filters
    .map((f) => [f.field, f.op, f.value] as const)
    .sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : a[0] + a[1] > b[0] + b[1] ? 1 : 0));
  return JSON.stringify([resource, filters, query.q ?? null]);
}

export function cachedCount(
  db: object,
  resource: string,
  key: string,
  now: number,
  count: () => Promise<number>,
): Promise<number> {
  return cachedValue(db, resource, key, now, count);
}

/**
 * Anything else read from the resource's rows as a whole and kept by the same rules as a total
 * (a public list's tag cloud): computed again after a write through the engine in this process,
 * and at most `COUNT_TTL_MS` old otherwise. `key` must not collide with a count's.
 */
export function cachedValue<T>(
  db: object,
  resource: string,
  key: string,
  now: number,
  compute: () => Promise<T>,
): Promise<T> {
  const state = stateOf(db);
  const version = versionOf(db, resource);
  const hit = state.entries.get(key);
  if (hit && hit.version === version && now - hit.at < COUNT_TTL_MS) return hit.total as Promise<T>;
  const total = compute();
  const entry: Entry = { version, at: now, total };
  state.entries.delete(key);
  state.entries.set(key, entry);
  if (state.entries.size > MAX_ENTRIES) {
    const oldest = state.entries.keys().next().value;
    if (oldest !== undefined) state.entries.delete(oldest);
  }
  // A failed read is not remembered.
  total.catch(() => {
    if (state.entries.get(key) === entry) state.entries.delete(key);
  });
  return total;
}

/**
 * Records a total learned for free (a page that was not full); `version` is the resource's
 * version read before the page was queried.
 */
export function rememberCount(db: object, key: string, version: number, now: number, total: number): void {
  const state = stateOf(db);
  state.entries.delete(key);
  state.entries.set(key, { version, at: now, total: Promise.resolve(total) });
}

/**
 * Values read from resources' rows, by key, valid as the totals are (the resources' versions in
 * this process, at most `COUNT_TTL_MS` old): for reads made per row or per query that come again
 * and again (an article's neighbours, a cover's photo, a library search, a user's roles). Kept
 * apart from the totals, at most `max` per database object, oldest out first, so that a crawler
 * walking every article cannot push the admin lists' totals out.
 */
export class VersionedKeeper<T> {
  private readonly kept = new WeakMap<
    object,
    Map<string, { value: T; version: number; generation: number; at: number }>
  >();
  private readonly resources: readonly string[];
  private generation = 0;

  /**
   * `resource`: the one the values are read from, or every one they are read from (none: the
   * values change only as `forget` says); `lasts`: a value that cannot change behind this
   * process's back, kept past the time a value may be old; `ttlMs`: that time (`COUNT_TTL_MS`
   * unless the values change more often than any version follows).
   */
  constructor(
    resource: string | readonly string[],
    private readonly max: number,
    private readonly lasts: (value: T) => boolean = () => false,
    /** How old a value may be (another process's writes, or changes no version follows). */
    private readonly ttlMs: number = COUNT_TTL_MS,
  ) {
    this.resources = typeof resource === 'string' ? [resource] : resource;
  }

  /**
   * The resources' version now (their sum with the data epoch: each only grows, so any write or
   * restore changes it): read it before the rows, and give it to `set` with what they said.
   */
  version(db: object): number {
    let sum = dataEpoch() * 2 ** 32;
    for (const resource of this.resources) sum += versionOf(db, resource);
    return sum;
  }

  get(db: object, key: string, now: number): { value: T } | undefined {
    const hit = this.kept.get(db)?.get(key);
    if (!hit || hit.version !== this.version(db) || hit.generation !== this.generation) return undefined;
    if (now - hit.at >= this.ttlMs && !this.lasts(hit.value)) return undefined;
    return { value: hit.value };
  }

  /**
   * Nothing kept is answered again: for a write, in its transaction, whose own answer is read
   * before the resources' versions move (they move once it has committed), or a write no
   * resource's version follows.
   */
  forget(): void {
    this.generation++;
  }

  set(db: object, key: string, value: T, version: number, now: number): void {
    let kept = this.kept.get(db);
    if (!kept) {
      kept = new Map();
      this.kept.set(db, kept);
    }
    kept.delete(key);
    kept.set(key, { value, version, generation: this.generation, at: now });
    if (kept.size > this.max) kept.delete(kept.keys().next().value as string);
  }
}
