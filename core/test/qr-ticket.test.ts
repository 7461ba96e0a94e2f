import { describe, expect, it } from 'vitest';
import {
  decideQrMove,
  QR_TICKET_MOVES,
  type QrStatusName,
  type QrTicketMove,
  qrTicketStatus,
} from '../src/index';

const STATUSES: QrStatusName[] = ['pending', 'scanned', 'confirmed', 'expired', 'cancelled'];

describe('scan-login tickets', () => {
  it('derives expired from the clock; cancelled stays cancelled', () => {
    expect(qrTicketStatus({ status: 'pending', expiresAt: 1000 }, 999)).toBe('pending');
    expect(qrTicketStatus({ status: 'scanned', expiresAt: 1000 }, 1000)).toBe('expired');
    expect(qrTicketStatus({ status: 'confirmed', expiresAt: 1000 }, 2000)).toBe('expired');
    expect(qrTicketStatus({ status: 'cancelled', expiresAt: 1000 }, 2000)).toBe('cancelled');
  });

  it('allows each move only from its state, and confirm/cancel only by the scanner', () => {
    const allowed: string[] = [];
    for (const move of Object.keys(QR_TICKET_MOVES) as QrTicketMove[])
      for (const status of STATUSES)
        for (const byScanner of [true, false])
          if (decideQrMove(move, status, byScanner) === 'go') allowed.push(`${move} ${status} ${byScanner}`);
    // A pending ticket has no scanner yet: anyone signed in may scan it.
    expect(allowed.sort()).toEqual([
      'cancel scanned true',
      'confirm scanned true',
      'scan pending false',
      'scan pending true',
    ]);
  });

  it('answers a repeated scan by the scanner as done, and names what stands in the way otherwise', () => {
    expect(decideQrMove('scan', 'scanned', true)).toBe('already');
    expect(decideQrMove('scan', 'scanned', false)).toBe('scanned');
    expect(decideQrMove('confirm', 'scanned', false)).toBe('scanned');
    expect(decideQrMove('confirm', 'pending', true)).toBe('pending');
    expect(decideQrMove('cancel', 'expired', true)).toBe('expired');
    expect(decideQrMove('confirm', 'confirmed', true)).toBe('confirmed');
  });
});
