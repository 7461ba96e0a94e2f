/**
 * Rate limits counted in the database, so every server process behind a load balancer shares
 * one count: a fixed window (a minute by default) per scope and subject (e.g. the public chat
 * bot's replies per address), taken with one atomic upsert — the same shape as the API gateway's
 * api_rate_windows (domain/api-gateway/ledger.ts). A fixed window lets a client that times its
 * requests at a window's edge make up to twice the limit within a minute; that is accepted here
 * as it is there, for a count that is exact across processes at one statement per request.
 *
 * For limits whose requests write rows of their own (sign-in attempts, merchant applications)
 * those rows are counted instead; this is for requests that write nothing.
 */
import { rateWindowOf } from '@wanxiang/core';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export interface RateSlot {
  /** Whether the request fits in the window (and was counted). */
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  used: number;
  /** Milliseconds until the window ends (the wait for a refused request). */
  retryAfterMs: number;
}

/** Counts one request of `subject` in `scope`'s current window, unless `limit` are counted already. */
export async function takeRateSlot(
  db: Kysely<Database>,
  scope: string,
  subject: string,
  limit: number,
  now: number,
  windowMs = 60_000,
): Promise<RateSlot> {
  const window = rateWindowOf(now, windowMs);
  // The `where` makes a full window refuse the update: no row comes back, and nothing changes.
  const { rows } = await sql<{ used: number | string }>`
    insert into rate_windows (scope, subject, window_start, used)
    values (${scope}, ${subject}, ${window.start}, 1)
    on conflict (scope, subject, window_start)
    do update set used = rate_windows.used + 1 where rate_windows.used < ${limit}
    returning used`.execute(db);
  const retryAfterMs = window.end - now;
  if (!rows[0]) return { allowed: false, used: limit, retryAfterMs };
  const used = Number(rows[0].used);
  // The first request of a subject's window drops the scope's past windows: the table holds
  // about one window of subjects, without a timer.
  if (used === 1) {
    await db
      .deleteFrom('rate_windows')
      .where('scope', '=', scope)
      .where('window_start', '<', window.start)
      .execute();
  }
  return { allowed: true, used, retryAfterMs };
}
