/**
 * Server-side sessions behind opaque bearer tokens. Sign-out really revokes (the row is
 * marked), and an administrator can revoke all of a user's sessions at once.
 */
import type { Kysely } from 'kysely';
import type { Database, RevokedReason, UserStatus } from '../../db/schema.js';
import { newToken, sha256Hex } from './tokens.js';

export interface NewSession {
  token: string;
  expiresAt: number;
}

export async function createSession(
  db: Kysely<Database>,
  input: { userId: number; ttlMs: number; now: number; ip: string | null; userAgent: string | null },
): Promise<NewSession> {
  const token = newToken();
  const expiresAt = input.now + input.ttlMs;
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: input.userId,
      created_at: input.now,
      expires_at: expiresAt,
      revoked_at: null,
      revoked_reason: null,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  return { token, expiresAt };
}

export interface SessionLookup {
  sessionId: number;
  userId: number;
  expiresAt: number;
  revokedReason: RevokedReason | null;
  userStatus: UserStatus;
}

export async function findSessionByToken(db: Kysely<Database>, token: string): Promise<SessionLookup | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionId',
      'sessions.user_id as userId',
      'sessions.expires_at as expiresAt',
      'sessions.revoked_reason as revokedReason',
      'users.status as userStatus',
    ])
    .where('sessions.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  return row ?? null;
}

export async function revokeSession(
  db: Kysely<Database>,
  sessionId: number,
  reason: RevokedReason,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Revokes every live session of a user (on disabling the account, or "sign out everywhere").
 * Their next authenticated call answers errorCode 1. Returns how many sessions were revoked.
 */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: number,
  reason: RevokedReason,
  now: number = Date.now(),
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Sessions that ended long ago are only noise; a day of history is kept for support questions. */
export async function deleteEndedSessions(db: Kysely<Database>, now: number): Promise<void> {
  const keepUntil = now - 24 * 3_600_000;
  await db.deleteFrom('sessions').where('expires_at', '<=', keepUntil).execute();
  await db.deleteFrom('sessions').where('revoked_at', '<=', keepUntil).execute();
}
