/**
 * How V8 sizes the server's heap, set at run time: main.ts imports this before it loads anything
 * else.
 *
 * - The young generation stays at the size it starts with (2 × 1 MB semi-spaces) instead of
 *   doubling up to 2 × 16 MB. It grows when many objects survive a scavenge: start-up (every
 *   module and the registry survive) grew it to its 32 MB maximum at once, and it stayed there,
 *   resident, for the life of the process. The server's own garbage is short-lived (a request's
 *   objects, an export's rows, which it streams: export.ts). Once it listens, it may grow while
 *   the server is saturated (`serving` below).
 * - The old generation is collected once it has grown by a quarter since the last collection,
 *   not by V8's own factor (up to 4× on a small heap that fills fast). With a small
 *   young generation more short-lived objects reach it, and on 1 000 000 orders the main thread's
 *   old generation grew 40 → 85 MB over two CSV exports before V8 collected it. While the server
 *   is saturated it may double (`serving` below).
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
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/** Whether the heap may grow now (see `serving`). */
let growing = false;

/** Inside `whileBulkWriting`: V8's own sizing. */
let bulk = false;

/**
 * How far the old generation may grow past what the last full collection left while the server
 * is saturated: double (see `serving`).
 */
const SATURATED_OLD_GROWTH_PERCENT = 100;

export function settleHeap(): void {
  setFlagsFromString(`--semi-space-growth-factor=${growing || bulk ? 2 : 1}`);
  // 0: V8's own factor (the flag's default).
  setFlagsFromString(`--heap-growing-percent=${growing ? SATURATED_OLD_GROWTH_PERCENT : bulk ? 0 : 25}`);
}

settleHeap();

/**
 * Once the server listens: the young generation may grow (V8's own doubling, up to its maximum),
 * and the old one double before it is collected, only while requests wait for a turn at admission
 * (http/admission.ts) — the server is saturated.
 *
 * Why: under saturation a request's objects live across several scavenges (it waits on the
 * database while others run), so a 1 MB young generation promotes them to the old one: at 64
 * connections on PostgreSQL the thread ran ~155 scavenges and about one full collection a second,
 * and the load's p99 stayed over its bar (BENCHMARKS.md, 2026-11-27 fifth session). Let grow while
 * requests queue, the same load's p99 fell from 106–115 to 77–90 ms. It is held otherwise, so a
 * quiet server and an export (whose rows die young) keep the small one: idle RSS and the export's
 * peak are what they were. V8 gives the space back once allocation slows: after a 20-s load on
 * PostgreSQL it stayed at its 32 MB maximum for about 55 s, then its memory reducer shrank it to
 * 1 MB (RSS 323 → 276 MB).
 *
 * The old generation likewise: under saturation the requests waiting in the queue outlive any
 * young generation, so their objects die in the old one, and collected after a quarter's growth it
 * was collected every ~2 s (heap 62 → 80 MB at 64 connections on PostgreSQL). Each collection's
 * concurrent marking took ~100 ms of a helper thread from the two cores the server's thread and
 * PostgreSQL share, and the half-second after it had the run's slowest answers (p99 100–115 ms
 * against 55–65 between them; a per-thread CPU sampler beside the load's timeline, BENCHMARKS.md
 * eighteenth session). V8's own factor is no cure: it sizes the growth from how fast the old
 * generation fills against how fast it is marked, and a server's slow, steady promotion draws
 * it near its minimum (60 → 80 MB, 1.3×) — 26–31 full collections a minute, as with the quarter (BENCHMARKS.md, twenty-fifth session). Doubling: 4–6 a minute, the load's p99 81–89 ms
 * against 100–108 in runs of the same speed, RSS at its peaks ~45 MB higher (three times: 2–3 a
 * minute, no lower p99 for its throughput, ~100 MB). Once the queue is empty, the limit set at the
 * next full collection is a quarter's growth again.
 *
 * Decided after each collection, the only moments V8 would grow it: growth is judged by the next
 * scavenge, and the queue's state at the last one is a fresh enough reading.
 */
export function serving(saturated: () => boolean): void {
  const steer = () => {
    const grow = saturated();
    if (grow === growing) return;
    growing = grow;
    settleHeap();
  };
  new PerformanceObserver(steer).observe({ entryTypes: ['gc'] });
}

/**
 * V8's own heap sizing for a one-off bulk job before the server listens — the demo content on
 * first start, which builds ~43 000 rows and their files in memory, most of them alive until
 * written. Held to the small young generation and a quarter's growth, the collector ran a third
 * of the job's CPU (1.8 s of 5.6 s, a CPU profile of a first start); the settings above are for
 * a serving process, whose garbage dies young. Afterwards V8 gives the grown young generation back
 * once allocation slows (see `serving`), as after a load.
 */
export async function whileBulkWriting<T>(job: () => Promise<T>): Promise<T> {
  bulk = true;
  settleHeap();
  try {
    return await job();
  } finally {
    bulk = false;
    settleHeap();
  }
}
