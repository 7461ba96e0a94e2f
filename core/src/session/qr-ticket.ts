/**
 * The life of a scan-login ticket (API.md "Scan login"), as rules both sides read: the server
 * executes them on its rows, clients name the same states. Stored states are pending, scanned,
 * confirmed and cancelled; `expired` is derived from the clock, so no timer rewrites rows.
 */
import type { QrStatusName } from '../http/qr-login-api';

export type QrStoredStatus = Exclude<QrStatusName, 'expired'>;

/** The moves a signed-in user makes on a ticket, and the one state each starts from. */
export const QR_TICKET_MOVES = {
  scan: { from: 'pending', to: 'scanned' },
  confirm: { from: 'scanned', to: 'confirmed' },
  cancel: { from: 'scanned', to: 'cancelled' },
} as const satisfies Record<string, { from: QrStoredStatus; to: QrStoredStatus }>;
export type QrTicketMove = keyof typeof QR_TICKET_MOVES;

/** What a ticket is now: cancelled stays cancelled; anything else past its time is expired. */
export function qrTicketStatus(
  ticket: { status: QrStoredStatus; expiresAt: number },
  now: number,
): QrStatusName {
  if (ticket.status === 'cancelled') return 'cancelled';
  return ticket.expiresAt <= now ? 'expired' : ticket.status;
}

/**
 * Whether `move` may happen to a ticket now in `status`, asked by the user who scanned it
 * (`byScanner`) or by another: `go`; `already` for a scan by its own scanner again (the confirm
 * screen may be reloaded); otherwise the state that stands in the way — `scanned` when another
 * user holds the ticket — for the refusal's words.
 */
export function decideQrMove(
  move: QrTicketMove,
  status: QrStatusName,
  byScanner: boolean,
): 'go' | 'already' | QrStatusName {
  const { from } = QR_TICKET_MOVES[move];
  if (move === 'scan' && status === 'scanned' && byScanner) return 'already';
  if (status !== from) return status;
  if (from === 'scanned' && !byScanner) return 'scanned';
  return 'go';
}
