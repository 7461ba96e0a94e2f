/**
 * How V8 sizes the server's heap, set at run time: main.ts imports this before it loads anything
 * else.
 *
 * - The young generation stays at the size it starts with (2 × 1 MB semi-spaces) instead of
 *   doubling up to 2 × 16 MB. It grows when many objects survive a scavenge: start-up (every
 *   module and the registry survive) grew it to its 32 MB maximum at once, and it stayed there,
 *   resident, for the life of the process. The server's own garbage is short-lived (a request's
 *   objects, an export's rows, which it streams: export.ts).
 * - The old generation is collected once it has grown by a quarter since the last collection,
 *   not when it has doubled or more (V8's own factor, up to 4× on a small heap). With a small
 *   young generation more short-lived objects reach it, and on 1 000 000 orders the main thread's
 *   old generation grew 40 → 85 MB over two CSV exports before V8 collected it.
 *
 * Measured on 1 000 000 orders (README): idle RSS 141 → 118 MB, peak during a CSV export of every
 * order 241–271 → under 200 MB, with the same export time and list figures.
 *
 * Both flags are read each time V8 would grow a space or set its next limit, so setting them at
 * run time works (`--max-semi-space-size` is read only when the heap is made: a command-line
 * flag). Starting a worker thread sets V8's flags back to their defaults until it is online, so
 * whoever starts one calls this again then, and does no heavy work in between
 * (export-parallel.ts): a scavenge in that window doubles the young generation, for good.
 */
import { setFlagsFromString } from 'node:v8';

export function settleHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=25');
}

settleHeap();
