/**
 * Server-side sessions behind opaque bearer tokens. Sign-out really revokes (the row is
 * marked), and an administrator can revoke all of a user's sessions at once.
 */
import { type CompiledQuery, type Kysely, PostgresAdapter, sql } from 'kysely';
import { dataEpoch } from '../../db/data-epoch.js';
import type { Database, RevokedReason, UserStatus } from '../../db/schema.js';
import type { SqliteReader } from '../../db/sqlite-reader.js';
import { newToken, sha256Hex } from './tokens.js';
import { roleNamesOf } from './users.js';

export interface OpenedSession {
  token: string;
  expiresAt: number;
  /** The user's role names, as the sign-in answers carry them (`authority`). */
  authority: string[];
}

/**
 * Signs a user in: the one way a session is opened, whether by password (auth/routes.ts) or by
 * scan-to-login (qr-login/routes.ts). A new random token, stored only as its hash, with its
 * expiry and where it came from; the user's last sign-in time; and the roles the answer names.
 * Whoever calls it has already decided that this user may sign in (password, captcha, status).
 */
export async function openSession(
  db: Kysely<Database>,
  input: { userId: number; ttlMs: number; now: number; ip: string | null; userAgent: string | null },
): Promise<OpenedSession> {
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
  await db.updateTable('users').set({ last_login_at: input.now }).where('id', '=', input.userId).execute();
  return { token, expiresAt, authority: await roleNamesOf(db, input.userId) };
}

export interface SessionLookup {
  sessionId: number;
  userId: number;
  expiresAt: number;
  revokedReason: RevokedReason | null;
  userStatus: UserStatus;
  /** Set when the account was deleted (users are soft-deleted): treated like a disabled one. */
  userDeletedAt: number | null;
  /** The user, read in the same query (every authenticated request needs it). */
  username: string;
  nickname: string | null;
  avatar: string | null;
  /** The user's role names, sorted. */
  roles: readonly string[];
}

/**
 * The session of a token with its user and roles, in one query: every authenticated request
 * asks, so it costs one round trip rather than three.
 */
function sessionLookup(db: Kysely<Database>, tokenHash: string) {
  const aggregate =
    db.getExecutor().adapter instanceof PostgresAdapter ? sql.raw('string_agg') : sql.raw('group_concat');
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionId',
      'sessions.user_id as userId',
      'sessions.expires_at as expiresAt',
      'sessions.revoked_reason as revokedReason',
      'users.status as userStatus',
      'users.deleted_at as userDeletedAt',
      'users.username as username',
      'users.nickname as nickname',
      'users.avatar as avatar',
      sql<
        string | null
      >`(select ${aggregate}(roles.name, ',') from user_roles join roles on roles.id = user_roles.role_id where user_roles.user_id = users.id)`.as(
        'roleList',
      ),
    ])
    .where('sessions.token_hash', '=', tokenHash);
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionLookup>['executeTakeFirstOrThrow']>>;

/**
 * The lookup's SQL, compiled once per database: its only parameter is the token's hash, and
 * building and compiling the query cost as much as running it.
 */
const compiledLookups = new WeakMap<Kysely<Database>, CompiledQuery<SessionRow>>();

/**
 * Lookups answered on the SQLite reader, kept while the database is unchanged: its
 * `data_version` moves with every commit by any connection (a sign-out, a revocation, a disabled
 * user or a changed role among them), and then everything kept goes at once. So a kept answer is
 * the one the query would give again; expiry is not in it (the caller compares `expiresAt` with
 * the clock). PostgreSQL has no such counter: there lookups are kept by pg-session-memo.ts, which
 * hears every change through a trigger's notification.
 *
 * Why: the lookup was ~7 % of a list request's CPU under load (32 connections on the orders
 * list), the largest share after the list's own SQL and the socket writes.
 */
interface KeptLookups {
  version: number;
  byToken: Map<string, SessionLookup | null>;
}
const keptLookups = new WeakMap<SqliteReader, KeptLookups>();
/** Tokens kept per database moment; past this they start again (a flood of made-up tokens). */
const MAX_KEPT_LOOKUPS = 10_000;

export async function findSessionByToken(
  db: Kysely<Database>,
  token: string,
  /**
   * SQLite's read connection (app.dbReader): the lookup runs there, prepared once, without
   * waiting in line for the main connection. It reads in autocommit mode, so a sign-out or a
   * revocation committed before is seen. 32 connections on the orders list (1 000 000 orders):
   * 3 287 req/s against 3 067 through `db`.
   */
  reader: SqliteReader | null = null,
): Promise<SessionLookup | null> {
  if (!reader) return readSession(db, token, null);
  // data_version moves with a restore's commit too; the epoch says so without relying on it.
  const version = reader.dataVersion() + dataEpoch() * 2 ** 32;
  let kept = keptLookups.get(reader);
  if (!kept || kept.version !== version || kept.byToken.size >= MAX_KEPT_LOOKUPS) {
    kept = { version, byToken: new Map() };
    keptLookups.set(reader, kept);
  }
  const hit = kept.byToken.get(token);
  if (hit !== undefined) return hit;
  const session = await readSession(db, token, reader);
  kept.byToken.set(token, session);
  return session;
}

/** The lookup itself; a kept answer is shared by requests, so it is frozen. */
async function readSession(
  db: Kysely<Database>,
  token: string,
  reader: SqliteReader | null,
): Promise<SessionLookup | null> {
  let compiled = compiledLookups.get(db);
  if (!compiled) {
    compiled = sessionLookup(db, '').compile();
    compiledLookups.set(db, compiled);
  }
  const parameters = [sha256Hex(token)];
  const rows = reader
    ? (reader.objects(compiled.sql, parameters) as SessionRow[])
    : (await db.executeQuery<SessionRow>({ ...compiled, parameters })).rows;
  const row = rows[0];
  if (!row) return null;
  const { roleList, ...rest } = row;
  const roles = Object.freeze(roleList ? roleList.split(',').sort() : []);
  return Object.freeze({ ...rest, roles });
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
