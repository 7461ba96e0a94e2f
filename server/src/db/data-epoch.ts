/**
 * The generation of the data this process serves. It moves when the whole database was replaced
 * under the running server (a restore, domain/backup): the in-memory caches that are kept valid
 * by write bookkeeping (list totals and related names by resource version, rendered rows by
 * `updated_at`, the sensitive-word automaton by (count, max(updated_at)), session lookups) carry
 * the epoch in their key, so none of them serves a pre-restore answer afterwards — even where the
 * restored rows happen to carry the same ids and stamps as the cached ones.
 *
 * One per process (not per app): a restore in one app only costs the others cache misses.
 */
let epoch = 0;

export function dataEpoch(): number {
  return epoch;
}

/** Called once the replaced data is committed and before writes are let in again. */
export function bumpDataEpoch(): void {
  epoch++;
}
