/**
 * Session lookups kept in memory on PostgreSQL, as `data_version` keeps them on SQLite
 * (sessions.ts): every authenticated request asks, and on PostgreSQL the lookup was a round trip
 * of its own and a third of the database's work per request of the orders list at 32 connections.
 *
 * Everything kept goes at once when
 * - this process commits a write to the sign-in tables (db/connect.ts `AuthWrites`: told after
 *   the database answered the COMMIT, so before the request that made the change is answered);
 * - another process, or anything else writing to the database, commits one: the database's
 *   triggers (db/migrations/0022_auth_notify.ts) notify on the `/ws` fan-out's channel and the
 *   listener every process has hears it (`system:auth`) — within milliseconds;
 * - the listener reconnects (what was notified meanwhile is lost), or the data was restored
 *   (`dataEpoch`).
 * While no listener listens nothing is kept, and nothing is kept longer than `TTL_MS`: the bound
 * on a change missed by a listener that died without its connection saying so. A token without a
 * session is never kept (made-up tokens read each time, as before).
 *
 * So a sign-out, a revocation, a disabled user or a changed role shows at the next call in the
 * process that made it, and in the others as soon as the notification arrives.
 */
import { dataEpoch } from '../../db/data-epoch.js';
import type { SessionLookup } from './sessions.js';

/** The longest a lookup is kept (see above). */
export const TTL_MS = 2_000;
/** Tokens kept at once; past this they start again. */
const MAX_KEPT = 10_000;

export class PgSessionMemo {
  private version = 0;
  private key = '';
  private readonly kept = new Map<string, { session: SessionLookup; at: number }>();

  constructor(
    /** The fan-out's listening connection (`PgFanout.listenGeneration`), null while none listens. */
    private readonly generation: () => number | null,
  ) {}

  /** Everything kept goes: something a lookup answers may have changed. */
  bump(): void {
    this.version++;
  }

  private currentKey(): string | null {
    const generation = this.generation();
    return generation === null ? null : `${generation}:${this.version}:${dataEpoch()}`;
  }

  async lookup(token: string, read: () => Promise<SessionLookup | null>): Promise<SessionLookup | null> {
    // Taken before reading: a change told while the read is out leaves its answer unkept.
    const key = this.currentKey();
    if (key === null) return read();
    if (key !== this.key || this.kept.size >= MAX_KEPT) {
      this.kept.clear();
      this.key = key;
    }
    // Real time, not the app's clock (tests stop that): the TTL bounds a real-world miss.
    const now = performance.now();
    const hit = this.kept.get(token);
    if (hit && now - hit.at < TTL_MS) return hit.session;
    const session = await read();
    if (session && this.currentKey() === key && this.key === key) this.kept.set(token, { session, at: now });
    return session;
  }
}
