/**
 * The user of a bearer token sent in a `/ws` message, by the same rules as `app.requireUser`
 * (revoked, signed-out, expired sessions and disabled or deleted users count as no user).
 */
import { permissionsOf } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuthUser } from '../domain/auth/auth-plugin.js';
import { findSessionByToken } from '../domain/auth/sessions.js';

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export async function userOfToken(
  db: Kysely<Database>,
  token: string,
  now: number,
): Promise<AuthUser | null> {
  if (!TOKEN.test(token)) return null;
  const session = await findSessionByToken(db, token);
  if (!session) return null;
  if (session.revokedReason !== null || session.expiresAt <= now) return null;
  if (session.userStatus !== 'active' || session.userDeletedAt !== null) return null;
  const { userId: id, username, nickname, avatar, roles } = session;
  return { id, username, nickname, avatar, roles, permissions: permissionsOf(roles) };
}
