/**
 * The gateway's database side: the key and API lookups, the read-only pre-checks, and the one
 * transaction that settles a call — its rate-window slot, the quota it consumes and its meter
 * (an `api_calls` row and the day's roll-up) — so the counters always equal the metered calls.
 *
 * The pre-checks only keep a caller who is already over the limit or out of quota from running
 * the tool; the transaction decides. Its writes are conditional (`used < limit`,
 * `remaining > 0`, `used < freeQuota`), so of many calls racing for the last unit exactly one
 * gets it: on PostgreSQL a concurrent UPDATE of the same row waits for the first to commit and
 * re-checks its condition; on SQLite transactions run one at a time. Every transaction touches
 * rows in the same order (rate window, free usage, paid quotas by expiry, roll-up, key), so
 * two never wait for each other in a cycle.
 */
import {
  type CallOutcome,
  chinaDayOf,
  chinaDayStart,
  dayDelta,
  type PaidQuota,
  type QuotaSource,
  quotaMonthOf,
  quotaSources,
  type RateWindow,
} from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';

export interface GatewayKey {
  id: number;
  userId: number;
  /** marketApis ids; empty = every API. */
  scopes: number[];
  status: string;
  userActive: boolean;
  lastUsedAt: number | null;
}

export interface GatewayApi {
  id: number;
  code: string;
  method: string;
  handler: string;
  freeQuota: number;
  rateLimitPerMin: number;
  status: string;
}

function scopesOf(raw: unknown): number[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value.map(Number).filter((n) => Number.isSafeInteger(n)) : [];
}

/*
 * Every statement on a call's path is written as SQL (Kysely's `sql` template) rather than with
 * the query builder: building and compiling a query with the builder cost more than SQLite
 * running it, and the gateway runs eight of them per call (bench/api-gateway.ts).
 */

interface KeyRow {
  id: number | string;
  user_id: number | string;
  scopes: unknown;
  status: string;
  last_used_at: number | string | null;
  user_status: string | null;
  deleted_at: number | string | null;
}

/** The key stored with this hash, with whether its owner may still use it. */
export async function keyByHash(db: AnyDb, hash: string): Promise<GatewayKey | null> {
  const { rows } = await sql<KeyRow>`
    select k.id, k.user_id, k.scopes, k.status, k.last_used_at, u.status as user_status, u.deleted_at
    from api_keys k left join users u on u.id = k.user_id
    where k.secret_hash = ${hash}`.execute(db);
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    scopes: scopesOf(row.scopes),
    status: String(row.status),
    userActive: row.user_status === 'active' && (row.deleted_at === null || row.deleted_at === undefined),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

interface ApiRow {
  id: number | string;
  code: string;
  method: string;
  handler: string;
  free_quota: number | string | null;
  rate_limit_per_min: number | string;
  status: string;
}

export async function apiByCode(db: AnyDb, code: string): Promise<GatewayApi | null> {
  const { rows } = await sql<ApiRow>`
    select id, code, method, handler, free_quota, rate_limit_per_min, status
    from market_apis where code = ${code}`.execute(db);
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    code: String(row.code),
    method: String(row.method),
    handler: String(row.handler),
    freeQuota: Number(row.free_quota ?? 0),
    rateLimitPerMin: Number(row.rate_limit_per_min),
    status: String(row.status),
  };
}

/** Calls counted in the key's window for the API so far. */
export async function windowUsed(
  db: AnyDb,
  keyId: number,
  apiId: number,
  window: RateWindow,
): Promise<number> {
  const { rows } = await sql<{ used: number | string }>`
    select used from api_rate_windows
    where key_id = ${keyId} and api_id = ${apiId} and window_start = ${window.start}`.execute(db);
  return rows[0] ? Number(rows[0].used) : 0;
}

async function freeUsed(db: AnyDb, userId: number, apiId: number, month: string): Promise<number> {
  const { rows } = await sql<{ used: number | string }>`
    select used from api_free_usage
    where user_id = ${userId} and api_id = ${apiId} and month = ${month}`.execute(db);
  return rows[0] ? Number(rows[0].used) : 0;
}

async function paidQuotas(db: AnyDb, userId: number, apiId: number, now: number): Promise<PaidQuota[]> {
  const { rows } = await sql<{
    id: number | string;
    remaining: number | string;
    expires_at: number | string | null;
  }>`
    select id, remaining, expires_at from api_quotas
    where user_id = ${userId} and api_id = ${apiId} and remaining > 0
      and (expires_at is null or expires_at > ${now})`.execute(db);
  return rows.map((r) => ({
    id: Number(r.id),
    remaining: Number(r.remaining),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  }));
}

/** Where the user's next call of the API would be paid from, in core's order (empty = none left). */
export async function sourcesFor(
  db: AnyDb,
  api: GatewayApi,
  userId: number,
  now: number,
): Promise<QuotaSource[]> {
  const month = quotaMonthOf(now);
  const [used, paid] = await Promise.all([
    api.freeQuota > 0 ? freeUsed(db, userId, api.id, month) : Promise.resolve(0),
    paidQuotas(db, userId, api.id, now),
  ]);
  return quotaSources({ freeQuota: api.freeQuota, freeUsed: used, paid, now });
}

/**
 * The pre-check in as few statements as the answer needs: the window's count and the month's
 * free calls in one read, the paid quotas only when no free call is left (when the free call is
 * lost to a race, the settling transaction reads them itself).
 */
export async function precheck(
  db: AnyDb,
  key: GatewayKey,
  api: GatewayApi,
  window: RateWindow,
  now: number,
): Promise<{ windowUsed: number; sources: QuotaSource[] }> {
  const month = quotaMonthOf(now);
  const { rows } = await sql<{ window_used: number | string | null; free_used: number | string | null }>`
    select
      (select used from api_rate_windows
        where key_id = ${key.id} and api_id = ${api.id} and window_start = ${window.start}) as window_used,
      (select used from api_free_usage
        where user_id = ${key.userId} and api_id = ${api.id} and month = ${month}) as free_used`.execute(db);
  const windowUsed = Number(rows[0]?.window_used ?? 0);
  const freeUsed = Number(rows[0]?.free_used ?? 0);
  if (windowUsed >= api.rateLimitPerMin) return { windowUsed, sources: [] };
  if (freeUsed < api.freeQuota) return { windowUsed, sources: [{ kind: 'free', month }] };
  const paid = await paidQuotas(db, key.userId, api.id, now);
  return { windowUsed, sources: quotaSources({ freeQuota: api.freeQuota, freeUsed, paid, now }) };
}

/** Takes the rate window's next slot; the slot's number, or null when the window is full. */
async function takeRateSlot(
  trx: AnyDb,
  keyId: number,
  api: GatewayApi,
  window: RateWindow,
): Promise<number | null> {
  const { rows } = await sql<{ used: number | string }>`
    insert into api_rate_windows (key_id, api_id, window_start, used)
    values (${keyId}, ${api.id}, ${window.start}, 1)
    on conflict (key_id, api_id, window_start)
    do update set used = api_rate_windows.used + 1 where api_rate_windows.used < ${api.rateLimitPerMin}
    returning used`.execute(trx);
  return rows[0] ? Number(rows[0].used) : null;
}

async function takeFree(trx: AnyDb, userId: number, api: GatewayApi, month: string): Promise<boolean> {
  const { rows } = await sql<{ used: number | string }>`
    insert into api_free_usage (user_id, api_id, month, used)
    values (${userId}, ${api.id}, ${month}, 1)
    on conflict (user_id, api_id, month)
    do update set used = api_free_usage.used + 1 where api_free_usage.used < ${api.freeQuota}
    returning used`.execute(trx);
  return rows.length > 0;
}

async function takePaid(trx: AnyDb, quotaId: number, now: number): Promise<boolean> {
  const result = await sql`
    update api_quotas set remaining = remaining - 1, updated_at = ${nextUpdatedAt(now)}
    where id = ${quotaId} and remaining > 0 and (expires_at is null or expires_at > ${now})`.execute(trx);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Consumes one call from the first source that still has one; the source, or null when none did. */
async function consumeQuota(
  trx: AnyDb,
  userId: number,
  api: GatewayApi,
  sources: readonly QuotaSource[],
  now: number,
): Promise<QuotaSource | null> {
  for (const source of sources) {
    const taken =
      source.kind === 'free'
        ? await takeFree(trx, userId, api, source.month)
        : await takePaid(trx, source.quotaId, now);
    if (taken) return source;
  }
  return null;
}

export interface SettleInput {
  key: GatewayKey;
  api: GatewayApi;
  window: RateWindow;
  now: number;
  /**
   * What the call wants: `ok` takes a rate slot and a quota unit; `error` a rate slot only;
   * `rateLimited` / `noQuota` (refused by the pre-check) nothing — they are only metered.
   */
  wanted: CallOutcome;
  /** For `ok`: the sources the pre-check found, tried in order (re-read if all are gone). */
  sources: readonly QuotaSource[];
  httpStatus: number;
  latencyMs: number;
  /** Also stamp the key's lastUsedAt in this transaction. */
  touchKey: boolean;
}

export interface Settled {
  /** What the call turned out to be: `ok` may become `rateLimited` or `noQuota` if it lost a race. */
  outcome: CallOutcome;
  /** Calls counted in the window after this one (for X-RateLimit-Remaining). */
  windowUsed: number;
}

const STATUS_OF: Record<CallOutcome, (wanted: number) => number> = {
  ok: (s) => s,
  error: (s) => s,
  rateLimited: () => 429,
  noQuota: () => 429,
};

/** Settles one call in one transaction: rate slot, quota, `api_calls` row and the day's roll-up. */
export async function settleCall(db: AnyDb, input: SettleInput): Promise<Settled> {
  const { key, api, window, now } = input;
  return db.transaction().execute(async (trx) => {
    let outcome = input.wanted;
    let used: number | null = null;
    if (outcome === 'ok' || outcome === 'error') {
      used = await takeRateSlot(trx, key.id, api, window);
      if (used === null) outcome = 'rateLimited';
    }
    if (outcome === 'ok') {
      let taken = await consumeQuota(trx, key.userId, api, input.sources, now);
      // Every source the pre-check saw was emptied meanwhile: one fresh look (a quota bought
      // since, the free quota of a month that just began) before saying no.
      if (!taken)
        taken = await consumeQuota(trx, key.userId, api, await sourcesFor(trx, api, key.userId, now), now);
      if (!taken) {
        outcome = 'noQuota';
        // The slot stays taken: the call was made, as the rate limit counts (core rate-limit.ts).
      }
    }
    const httpStatus = STATUS_OF[outcome](input.httpStatus);
    const latency = Math.max(0, Math.round(input.latencyMs));
    await sql`
      insert into api_calls (created_at, updated_at, key_id, api_id, status, http_status, latency_ms, at)
      values (${now}, ${now}, ${key.id}, ${api.id}, ${outcome}, ${httpStatus}, ${latency}, ${now})`.execute(
      trx,
    );
    const d = dayDelta(outcome, latency);
    await sql`
      insert into api_call_days
        (key_id, api_id, day_start, calls, ok, errors, rate_limited, no_quota, latency_sum, latency_max)
      values (${key.id}, ${api.id}, ${chinaDayStart(chinaDayOf(now))}, 1, ${d.ok}, ${d.errors},
        ${d.rateLimited}, ${d.noQuota}, ${d.latencySum}, ${d.latencyMax})
      on conflict (key_id, api_id, day_start) do update set
        calls = api_call_days.calls + 1,
        ok = api_call_days.ok + excluded.ok,
        errors = api_call_days.errors + excluded.errors,
        rate_limited = api_call_days.rate_limited + excluded.rate_limited,
        no_quota = api_call_days.no_quota + excluded.no_quota,
        latency_sum = api_call_days.latency_sum + excluded.latency_sum,
        latency_max = case when excluded.latency_max > api_call_days.latency_max
          then excluded.latency_max else api_call_days.latency_max end`.execute(trx);
    if (input.touchKey) {
      // Not through nextUpdatedAt: a use is not an edit, and must not make an open edit form of
      // the key stale (409). The list shows it within the row cache's TTL.
      await sql`update api_keys set last_used_at = ${now} where id = ${key.id}`.execute(trx);
    }
    return { outcome, windowUsed: used ?? (await windowUsed(trx, key.id, api.id, window)) };
  });
}
