/**
 * Which quota a gateway call consumes (DOMAIN.md "API market"): first the API's free quota,
 * then the user's paid quotas of that API that have calls left and have not expired, the one
 * expiring soonest first — so nothing bought goes to waste while a later quota is drawn.
 *
 * The free quota is per user, per API, per calendar month in China time (as 阿里云 API 市场's
 * monthly free allowances): a key does not multiply it (a user's second key shares the month's
 * free calls), and it renews at midnight on the 1st, Beijing time.
 *
 * Only successful calls consume quota (a call the tool refused — bad input, an unreachable
 * host — is metered as an error and costs nothing), as API marketplaces bill.
 *
 * The server executes the choice in one transaction with conditional UPDATEs (`remaining > 0`,
 * `used < freeQuota`), so a source another call emptied in between is skipped, never overdrawn.
 */
import { CHINA_OFFSET_MS } from '../format/date';

/** `2025-01` — the China calendar month of an instant, the free quota's period. */
export function quotaMonthOf(at: number): string {
  return new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 7);
}

/** A paid quota row as the rule reads it. */
export interface PaidQuota {
  id: number;
  remaining: number;
  /** Epoch ms; null = never expires (a quota granted by hand without an end). */
  expiresAt: number | null;
}

export type QuotaSource = { kind: 'free'; month: string } | { kind: 'paid'; quotaId: number };

/** Whether a paid quota can pay for a call at `now` (expiry is exclusive: at expiresAt it is gone). */
export function paidQuotaUsable(q: PaidQuota, now: number): boolean {
  return q.remaining > 0 && (q.expiresAt === null || q.expiresAt > now);
}

/**
 * The sources to try, in order: the month's free quota when some is left, then each usable paid
 * quota, soonest expiry first (no expiry last), older rows first on a tie. Empty = no quota.
 */
export function quotaSources(input: {
  freeQuota: number;
  freeUsed: number;
  paid: readonly PaidQuota[];
  now: number;
}): QuotaSource[] {
  const sources: QuotaSource[] = [];
  if (input.freeUsed < input.freeQuota) sources.push({ kind: 'free', month: quotaMonthOf(input.now) });
  const paid = input.paid
    .filter((q) => paidQuotaUsable(q, input.now))
    .sort(
      (a, b) =>
        (a.expiresAt ?? Number.POSITIVE_INFINITY) - (b.expiresAt ?? Number.POSITIVE_INFINITY) || a.id - b.id,
    );
  for (const q of paid) sources.push({ kind: 'paid', quotaId: q.id });
  return sources;
}

/** Calls left for the user on the API now: the month's free calls left plus usable paid ones. */
export function quotaLeft(input: {
  freeQuota: number;
  freeUsed: number;
  paid: readonly PaidQuota[];
  now: number;
}): number {
  const free = Math.max(0, input.freeQuota - input.freeUsed);
  return input.paid.filter((q) => paidQuotaUsable(q, input.now)).reduce((sum, q) => sum + q.remaining, free);
}
