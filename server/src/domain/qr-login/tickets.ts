/**
 * Scan-login tickets as rows (see README.md). The ticket itself is a 256-bit random string handed
 * to the waiting side; the table keeps only its SHA-256, so reading the database does not let
 * anyone collect a token. The status a caller sees is derived: a live row past its expiry is
 * `expired` without anything having to update it.
 */
import { QR_CLAIM_WINDOW_MS, QR_TICKETS_PER_MINUTE, type QrStoredStatus } from '@wanxiang/core';
import type { ColumnType, Kysely } from 'kysely';
import { inlineLimit } from '../../db/limit.js';
import type { Database } from '../../db/schema.js';
import { newToken, sha256Hex } from '../auth/tokens.js';

export type TicketRowStatus = QrStoredStatus;

export interface QrLoginTicketsTable {
  /** SHA-256 (hex) of the ticket. */
  id: string;
  status: ColumnType<TicketRowStatus, TicketRowStatus | undefined, TicketRowStatus>;
  created_at: number;
  /** The ticket's expiry; once confirmed, the end of the window to collect the token. */
  expires_at: number;
  client_ip: string;
  client_user_agent: string | null;
  /** Who scanned (and alone may confirm or cancel). */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
  scanned_at: ColumnType<number | null, number | null | undefined, number | null>;
  decided_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the waiting side collected its token; the ticket is used up from then on. */
  consumed_at: ColumnType<number | null, number | null | undefined, number | null>;
}

type QrDb = Kysely<Database & { qr_login_tickets: QrLoginTicketsTable }>;

/** The table is this area's own: typed here rather than in the shared schema. */
export const qrDb = (db: Kysely<Database>): QrDb =>
  db.withTables<{ qr_login_tickets: QrLoginTicketsTable }>();

export interface TicketRow {
  id: string;
  status: TicketRowStatus;
  createdAt: number;
  expiresAt: number;
  clientIp: string;
  clientUserAgent: string | null;
  userId: number | null;
  consumedAt: number | null;
}

export const RATE_WINDOW_MS = 60_000;

export async function createTicket(
  db: Kysely<Database>,
  input: { now: number; ttlMs: number; ip: string; userAgent: string | null },
): Promise<{ ticket: string; expiresAt: number }> {
  const ticket = newToken();
  const expiresAt = input.now + input.ttlMs;
  await qrDb(db)
    .insertInto('qr_login_tickets')
    .values({
      id: sha256Hex(ticket),
      status: 'pending',
      created_at: input.now,
      expires_at: expiresAt,
      client_ip: input.ip,
      client_user_agent: input.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  return { ticket, expiresAt };
}

/** Milliseconds until `ip` may request another ticket, or null when it may now. */
export async function ticketRetryAfterMs(
  db: Kysely<Database>,
  ip: string,
  now: number,
): Promise<number | null> {
  const row = await qrDb(db)
    .selectFrom('qr_login_tickets')
    .select('created_at')
    .where('client_ip', '=', ip)
    .where('created_at', '>', now - RATE_WINDOW_MS)
    .orderBy('created_at', 'desc')
    .limit(inlineLimit(1))
    .offset(QR_TICKETS_PER_MINUTE - 1)
    .executeTakeFirst();
  return row ? row.created_at + RATE_WINDOW_MS - now : null;
}

export async function findTicket(db: Kysely<Database>, ticket: string): Promise<TicketRow | null> {
  const row = await qrDb(db)
    .selectFrom('qr_login_tickets')
    .selectAll()
    .where('id', '=', sha256Hex(ticket))
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    clientIp: row.client_ip,
    clientUserAgent: row.client_user_agent,
    userId: row.user_id,
    consumedAt: row.consumed_at,
  };
}

/**
 * Moves a ticket from `from` to `to` if it is still in `from` (and, when given, held by `userId`)
 * and not expired. False when another request changed it first: the caller rereads.
 */
export async function transition(
  db: Kysely<Database>,
  row: TicketRow,
  change: { from: TicketRowStatus; to: TicketRowStatus; userId: number; now: number },
): Promise<boolean> {
  const set =
    change.to === 'scanned'
      ? { status: change.to, user_id: change.userId, scanned_at: change.now }
      : change.to === 'confirmed'
        ? // From now on the row's expiry is the window to collect the token.
          { status: change.to, decided_at: change.now, expires_at: change.now + QR_CLAIM_WINDOW_MS }
        : { status: change.to, decided_at: change.now };
  let query = qrDb(db)
    .updateTable('qr_login_tickets')
    .set(set)
    .where('id', '=', row.id)
    .where('status', '=', change.from)
    .where('expires_at', '>', change.now);
  if (change.from !== 'pending') query = query.where('user_id', '=', change.userId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a confirmed ticket collected; true for exactly one caller. */
export async function consume(db: Kysely<Database>, row: TicketRow, now: number): Promise<boolean> {
  const result = await qrDb(db)
    .updateTable('qr_login_tickets')
    .set({ consumed_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'confirmed')
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Tickets are worth nothing once expired; a few minutes are kept so late readers get "expired". */
export const KEEP_AFTER_EXPIRY_MS = 10 * 60_000;

export async function deleteOldTickets(db: Kysely<Database>, now: number): Promise<number> {
  const result = await qrDb(db)
    .deleteFrom('qr_login_tickets')
    .where('expires_at', '<=', now - KEEP_AFTER_EXPIRY_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
