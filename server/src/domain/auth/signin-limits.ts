/**
 * Brute-force limits on sign-in (QUALITY.md): 5 failed sign-ins for one username within the
 * window, or 20 from one address, and further attempts answer 429 until the oldest counted
 * failure leaves the window. State is rows in login_attempts, so the limit holds across
 * restarts and across several server processes.
 *
 * A success resets the count for that username (its owner proved they know the password),
 * but not for the address, so one valid account cannot be used to launder guesses.
 */
import { SIGNIN_LIMIT } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import { inlineLimit } from '../../db/limit.js';
import type { Database } from '../../db/schema.js';

export interface AttemptKey {
  username: string;
  ip: string;
}

/**
 * The time of the failure that must leave the window before another attempt is allowed: the
 * `limit`-th most recent failure within the window, or null if fewer than `limit` failed.
 */
async function blockingFailureAt(
  db: Kysely<Database>,
  column: 'username' | 'ip',
  value: string,
  since: number,
  limit: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where(column, '=', value)
    .where('success', '=', 0)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(inlineLimit(1))
    .offset(limit - 1)
    .executeTakeFirst();
  return row ? row.at : null;
}

async function lastSuccessAt(db: Kysely<Database>, username: string, since: number): Promise<number | null> {
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where('username', '=', username)
    .where('success', '=', 1)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(inlineLimit(1))
    .executeTakeFirst();
  return row ? row.at : null;
}

/** Milliseconds until another sign-in is allowed, or null when it is allowed now. */
export async function signInRetryAfterMs(
  db: Kysely<Database>,
  key: AttemptKey,
  now: number,
): Promise<number | null> {
  const windowStart = now - SIGNIN_LIMIT.windowMs;
  const userSince = Math.max(
    windowStart,
    (await lastSuccessAt(db, key.username, windowStart)) ?? windowStart,
  );
  const [byUser, byAddress] = await Promise.all([
    blockingFailureAt(db, 'username', key.username, userSince, SIGNIN_LIMIT.perUsername),
    blockingFailureAt(db, 'ip', key.ip, windowStart, SIGNIN_LIMIT.perAddress),
  ]);
  const waits = [byUser, byAddress]
    .filter((at): at is number => at !== null)
    .map((at) => at + SIGNIN_LIMIT.windowMs - now);
  return waits.length > 0 ? Math.max(...waits) : null;
}

export async function recordSignInAttempt(
  db: Kysely<Database>,
  key: AttemptKey,
  success: boolean,
  now: number,
): Promise<void> {
  await db
    .insertInto('login_attempts')
    .values({ username: key.username, ip: key.ip, success: success ? 1 : 0, at: now })
    .execute();
}

/** Attempts older than the window no longer count for anything. */
export async function deleteOldSignInAttempts(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where('at', '<=', now - SIGNIN_LIMIT.windowMs)
    .execute();
}
