/** Market APIs, keys and quotas written as rows, as key management and plan orders would leave them. */
import { apiKeyPrefix, newApiKey } from '@wanxiang/core';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { hashApiKey } from '../../src/domain/api-market/key-hash.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import type { TestApp } from '../helpers/app.js';

export const anyDb = (t: TestApp) => t.app.db as unknown as AnyDb;

export async function userIdOf(t: TestApp, username: string): Promise<number> {
  const row = await anyDb(t)
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface NewApi {
  code: string;
  handler: 'totp' | 'sslCheck' | 'palette' | 'docSearch';
  method?: 'GET' | 'POST' | 'ANY';
  freeQuota?: number;
  rateLimitPerMin?: number;
  status?: 'enabled' | 'disabled';
}

export async function addApi(t: TestApp, api: NewApi): Promise<number> {
  const now = t.clock.now();
  const row = await anyDb(t)
    .insertInto('market_apis')
    .values({
      created_at: now,
      updated_at: now,
      code: api.code,
      name: api.code,
      method: api.method ?? 'GET',
      handler: api.handler,
      free_quota: api.freeQuota ?? 0,
      rate_limit_per_min: api.rateLimitPerMin ?? 10_000,
      status: api.status ?? 'enabled',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function addKey(
  t: TestApp,
  userId: number,
  options: { scopes?: number[]; status?: 'active' | 'revoked' } = {},
): Promise<{ id: number; key: string }> {
  const key = newApiKey();
  const now = t.clock.now();
  const row = await anyDb(t)
    .insertInto('api_keys')
    .values({
      created_at: now,
      updated_at: now,
      user_id: userId,
      name: 'test key',
      prefix: apiKeyPrefix(key),
      secret_hash: hashApiKey(key),
      scopes: JSON.stringify(options.scopes ?? []),
      status: options.status ?? 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), key };
}

export async function addQuota(
  t: TestApp,
  userId: number,
  apiId: number,
  remaining: number,
  expiresAt: number | null,
): Promise<number> {
  const now = t.clock.now();
  const row = await anyDb(t)
    .insertInto('api_quotas')
    .values({
      created_at: now,
      updated_at: now,
      user_id: userId,
      api_id: apiId,
      remaining,
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function remainingOf(t: TestApp, quotaId: number): Promise<number> {
  const row = await anyDb(t)
    .selectFrom('api_quotas')
    .select('remaining')
    .where('id', '=', quotaId)
    .executeTakeFirstOrThrow();
  return Number(row.remaining);
}

export interface Call {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

export async function gw(
  app: FastifyInstance,
  code: string,
  key: string | null,
  options: {
    method?: InjectOptions['method'];
    query?: Record<string, string>;
    payload?: unknown;
    viaQuery?: boolean;
  } = {},
): Promise<Call> {
  const query = new URLSearchParams({
    ...(options.query ?? {}),
    ...(key && options.viaQuery ? { apikey: key } : {}),
  });
  const qs = query.toString();
  const res = await app.inject({
    method: options.method ?? 'GET',
    url: `/cloud/api/${code}${qs ? `?${qs}` : ''}`,
    headers: key && !options.viaQuery ? { 'x-api-key': key } : {},
    ...(options.payload === undefined ? {} : { payload: options.payload as InjectOptions['payload'] }),
  });
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers };
}

/** The metered calls and the roll-up's counters of a key. */
export async function meterOf(t: TestApp, keyId: number) {
  const calls = await anyDb(t)
    .selectFrom('api_calls')
    .select(['status', 'http_status'])
    .where('key_id', '=', keyId)
    .execute();
  const days = await anyDb(t).selectFrom('api_call_days').selectAll().where('key_id', '=', keyId).execute();
  const sum = (k: string) => days.reduce((s, d) => s + Number(d[k]), 0);
  const count = (status: string) => calls.filter((c) => c.status === status).length;
  return {
    calls: calls.length,
    ok: count('ok'),
    errors: count('error'),
    rateLimited: count('rateLimited'),
    noQuota: count('noQuota'),
    rollup: {
      calls: sum('calls'),
      ok: sum('ok'),
      errors: sum('errors'),
      rateLimited: sum('rate_limited'),
      noQuota: sum('no_quota'),
    },
  };
}
