/**
 * The typed shape of the database, as Kysely sees it. Column names are the SQL names
 * (snake_case) so queries read like SQL; routes map rows to camelCase at the wire.
 *
 * Uniform on both dialects: timestamps are epoch milliseconds in BIGINT columns (PostgreSQL's
 * int8 is parsed to a JS number by the pool, see connect.ts), flags are INTEGER 0/1
 * (better-sqlite3 cannot bind booleans), JSON is TEXT.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Epoch milliseconds. */
export type EpochMs = number;
/** 0 or 1. */
export type Flag = 0 | 1;

export type UserStatus = 'active' | 'disabled';
export type RevokedReason = 'signout' | 'revoked' | 'disabled';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  nickname: string | null;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  created_at: EpochMs;
  updated_at: EpochMs;
  last_login_at: EpochMs | null;
  // Added by 0002 for the users resource of the registry.
  deleted_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>;
  balance_fen: ColumnType<number, number | undefined, number>;
  points: ColumnType<number, number | undefined, number>;
  member_level_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  title: string;
  /** JSON array of `area:mode` strings. */
  permissions: string;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: EpochMs;
  expires_at: EpochMs;
  revoked_at: EpochMs | null;
  revoked_reason: RevokedReason | null;
  ip: string | null;
  user_agent: string | null;
}

export interface CaptchasTable {
  id: string;
  /** SHA-256 (hex) of the lower-cased answer. */
  code_hash: string;
  expires_at: EpochMs;
  used: Flag;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  username: string;
  ip: string;
  success: Flag;
  at: EpochMs;
}

export interface PlatformConfigTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: EpochMs;
}

export interface UserPreferencesTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  /** JSON text. */
  value: string;
  updated_at: EpochMs;
}

/** A task's lease (0010, server/src/scheduler/lease.ts). */
export interface SchedulerLeasesTable {
  name: string;
  holder: string;
  expires_at: EpochMs;
  acquired_at: EpochMs;
  runs: ColumnType<number, number | undefined, number>;
  last_run_at: EpochMs | null;
  last_error: string | null;
}

/** Uploaded files' bytes under BLOB_STORE=database (0021, files/database-blobs.ts). */
export interface BlobsTable {
  id: string;
  size: number;
  created_at: EpochMs;
  bytes: Uint8Array;
}

/** Fixed-window rate-limit counters (0021, domain/rate-window.ts). */
export interface RateWindowsTable {
  scope: string;
  subject: string;
  window_start: EpochMs;
  used: number;
}

/** `/ws` publishes too large for a NOTIFY payload (0021, ws/pg-fanout.ts). */
export interface HubMessagesTable {
  id: Generated<number>;
  created_at: EpochMs;
  payload: string;
}

/**
 * The tables above are the fixed ones; the tables of the resource registry (0002 onwards) are
 * reached through the resource engine (server/src/resources), which derives them from core.
 */
export interface Database {
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  login_attempts: LoginAttemptsTable;
  platform_config: PlatformConfigTable;
  user_preferences: UserPreferencesTable;
  scheduler_leases: SchedulerLeasesTable;
  blobs: BlobsTable;
  rate_windows: RateWindowsTable;
  hub_messages: HubMessagesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
