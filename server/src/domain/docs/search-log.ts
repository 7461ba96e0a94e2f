/**
 * The library's search log (`doc_search_logs`, the admin's 搜索日志): every search with a q is
 * logged with its visitor, hits and time — written together, up to a second's searches in one
 * INSERT, not one committed write per search.
 *
 * Why: a public search is answered from what was kept (routes.ts `searches`) with no statement
 * but its log entry, and that entry was a transaction of its own — a round trip, a commit waiting
 * for the WAL's flush and four index entries for every visitor's keystroke-and-enter. Alone, a
 * kept search cost the server 0.45 ms of CPU and PostgreSQL 0.22 ms with its entry, 0.19 and 0
 * without it (BENCHMARKS.md, twenty-second session). Search analytics are written this way in
 * the products we learn from (a buffer flushed on a timer); the admin's log shows a search within
 * `FLUSH_MS`.
 *
 * What it costs: an entry lives in memory until its batch commits — a `kill -9` loses at most the
 * last second's entries (a clean stop writes them: `close`). The entry is the server's own
 * record of a read, not anything a caller was told was saved, so the crash rule (every
 * acknowledged write survives) does not reach it. A batch that fails (the database away) is kept
 * and tried again, at most `MAX_KEPT` entries, the oldest given up first — a log must not take
 * the server's memory while the database is down. An entry the database itself would refuse does
 * not get this far: the q is checked (routes.ts `parseDocQuery`) and NUL refused with the request
 * (http/nul-characters.ts); the other values are the server's numbers.
 */
import type { AnyDb } from '../../resources/extensions.js';

/** How long an entry may wait for others before its batch is written. */
export const FLUSH_MS = 1_000;
/** Entries in one INSERT (6 values each: well inside either database's limit on parameters). */
const BATCH = 500;
/** Entries kept while the database does not take them; beyond it the oldest are given up. */
const MAX_KEPT = 10_000;

export interface SearchLogEntry {
  q: string;
  userId: number | null;
  hits: number;
  tookMs: number;
  /** When the search was answered (epoch ms): the entry's `created_at`. */
  at: number;
}

interface Logger {
  error(object: unknown, message: string): void;
}

export class SearchLog {
  private kept: SearchLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** After `close`: the database is going, nothing more is kept or tried. */
  private closed = false;
  /** Writes one after another, so entries reach the table in the order the searches were answered. */
  private writing: Promise<void> = Promise.resolve();

  /** `written`: told after each batch commits (the admin list's kept totals move with it). */
  constructor(
    private readonly db: AnyDb,
    private readonly written: () => void,
    private readonly log: Logger,
  ) {}

  add(entry: SearchLogEntry): void {
    if (this.closed) return;
    this.kept.push(entry);
    if (this.kept.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes every entry kept so far; settles once they are committed or kept again after a failure. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.writeKept());
    return this.writing;
  }

  /** At a clean stop: everything kept is written (once: the database is closing next). */
  close(): Promise<void> {
    return this.flush().then(() => {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (this.kept.length > 0)
        this.log.error({ lost: this.kept.length }, 'search log entries could not be written before the stop');
    });
  }

  private async writeKept(): Promise<void> {
    while (this.kept.length > 0) {
      const batch = this.kept.splice(0, BATCH);
      try {
        await this.db
          .insertInto('doc_search_logs')
          .values(
            batch.map((e) => ({
              q: e.q,
              user_id: e.userId,
              hits: e.hits,
              took_ms: e.tookMs,
              created_at: e.at,
              updated_at: e.at,
            })),
          )
          .execute();
      } catch (err) {
        this.kept.unshift(...batch);
        const over = this.kept.length - MAX_KEPT;
        if (over > 0) this.kept.splice(0, over);
        this.log.error(
          { err, kept: this.kept.length, givenUp: Math.max(0, over) },
          'writing the search log failed; tried again later',
        );
        if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
        return;
      }
      this.written();
    }
  }
}

/** Each app's search log, by its database (tests write it out before reading the table). */
const logs = new WeakMap<object, SearchLog>();

export function searchLogOf(db: object): SearchLog | undefined {
  return logs.get(db);
}

export function keepSearchLog(db: object, log: SearchLog): void {
  logs.set(db, log);
}
