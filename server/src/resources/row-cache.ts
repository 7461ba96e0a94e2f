/**
 * Rendered list rows, kept by (table, id, updated_at) — the way Rails caches a collection's
 * partials by each record's `cache_key_with_version`.
 *
 * Why: on SQLite, writing a page's 20 order rows as JSON (sqlite-json.ts) was most of a list
 * request's time under load; reading which rows a page holds, with their `updated_at`, is a walk
 * of the list's index and costs a fifth of that. A back office asks for the same newest rows over
 * and over (every operator's first page, its auto-refresh), and a row's JSON only changes when the
 * row does. So the list still runs its query every time — filters, order, paging and soft delete
 * are always the database's answer — and only the rows whose `updated_at` is what the cache holds
 * are not written again.
 *
 * A row is current when every write to it moves `updated_at`, which the engine's writes and
 * actions do (`nextStamp`, `nextUpdatedAt`: strictly later, so two writes in one millisecond
 * differ too) — the stale-update check (409) depends on the same rule. A write that does not (a
 * view counter, an UPDATE by hand outside the server) shows after at most `ttlMs`: no entry is
 * used longer than that, as with totals and related names.
 *
 * Bounded by the UTF-8 bytes it holds; the oldest entries go first. A row larger than
 * `maxRowBytes` is not kept (writing it again costs little beside sending it).
 */
import { dataEpoch } from '../db/data-epoch.js';
import { ownMemory } from './own-memory.js';

export interface RowCacheOptions {
  /** The most UTF-8 bytes of rows kept, in all tables together. */
  maxBytes: number;
  /** How long an entry may be used, in ms. */
  ttlMs: number;
  /** Rows larger than this are not kept (default: maxBytes / 64). */
  maxRowBytes?: number;
}

interface Entry {
  version: unknown;
  json: Buffer;
  at: number;
  /** db/data-epoch.ts: a row rendered before a restore is never used after it. */
  epoch: number;
}

export class RowCache {
  private readonly rows = new Map<string, Entry>();
  private held = 0;
  private readonly maxRowBytes: number;

  constructor(private readonly options: RowCacheOptions) {
    this.maxRowBytes = options.maxRowBytes ?? Math.floor(options.maxBytes / 64);
  }

  /** The bytes of rows held now. */
  get bytes(): number {
    return this.held;
  }

  /** The row's JSON when it was written from this `version` of the row less than `ttlMs` ago. */
  get(table: string, id: unknown, version: unknown, now: number): Buffer | undefined {
    const entry = this.rows.get(`${table}:${id}`);
    if (
      !entry ||
      entry.version !== version ||
      entry.epoch !== dataEpoch() ||
      now - entry.at >= this.options.ttlMs
    )
      return undefined;
    return entry.json;
  }

  set(table: string, id: unknown, version: unknown, json: Buffer, now: number): void {
    const key = `${table}:${id}`;
    this.remove(key);
    if (json.length > this.maxRowBytes) return;
    this.rows.set(key, { version, json: ownMemory(json), at: now, epoch: dataEpoch() });
    this.held += json.length;
    // A Map iterates in insertion order: the first keys are the oldest entries.
    for (const [oldest, entry] of this.rows) {
      if (this.held <= this.options.maxBytes) break;
      this.rows.delete(oldest);
      this.held -= entry.json.length;
    }
  }

  private remove(key: string): void {
    const entry = this.rows.get(key);
    if (!entry) return;
    this.rows.delete(key);
    this.held -= entry.json.length;
  }
}
