/**
 * Run in a child process by v8-heap.test.ts (V8's flags are process-wide): allocates objects that
 * survive a few scavenges, as requests waiting on the database do, first while the server is not
 * saturated, then while it is. Prints, for start-up and after each phase, the young generation's
 * size (MB), and for each phase the full collections it took and the median of how far the old
 * generation had grown when each came (its largest size read since the collection before, over
 * its size just after that one).
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { serving } from '../../src/v8-heap.js';

const spaceMb = (name: string, field: 'space_size' | 'space_used_size') =>
  (getHeapSpaceStatistics().find((s) => s.space_name === name)?.[field] ?? 0) / 2 ** 20;
const youngMb = () => spaceMb('new_space', 'space_size');
const oldMb = () => spaceMb('old_space', 'space_used_size');

let saturated = false;
serving(() => saturated);

let fullCollections = 0;
/** The old generation's size after the last full collection, and the largest read since. */
let after = Number.NaN;
let peak = 0;
let growths: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      fullCollections++;
      if (after > 0) growths.push(peak / after);
      after = oldMb();
      peak = after;
    }
}).observe({ entryTypes: ['gc'] });

/** The median growth of the full collections since the last call. */
function medianGrowth(): number {
  const sorted = growths.sort((a, b) => a - b);
  growths = [];
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** What a serving process holds for good (its modules, the registry, kept pages): ~30 MB. */
const resident = Array.from({ length: 250_000 }, (_, i) => ({ i, text: `resident ${i}` }));

/**
 * Objects allocated in turns, each kept alive for the next `kept` of them: a few MB outlive a few
 * scavenges of a small young generation, tens of MB any young generation (they die in the old one,
 * as the objects of requests waiting in a long queue do). Returns the full collections it took.
 */
async function work(kept: number, turns: number): Promise<number> {
  const before = fullCollections;
  const alive: unknown[] = new Array(kept);
  for (let turn = 0; turn < turns; turn++) {
    for (let i = 0; i < 10_000; i++)
      alive[(turn * 10_000 + i) % alive.length] = { turn, i, text: `row ${i}`, at: [turn, i] };
    peak = Math.max(peak, oldMb());
    // The collector's entries reach the observer between turns, as between requests.
    await yieldTurn();
  }
  return fullCollections - before;
}

// Its size after start-up (loading the code may have grown it before the policy was set).
const sizes: number[] = [youngMb()];
const quietFull = (await work(20_000, 64)) + (await work(400_000, 300));
const quietGrowth = medianGrowth();
sizes.push(youngMb());
saturated = true;
const saturatedFull = (await work(20_000, 64)) + (await work(400_000, 300));
const saturatedGrowth = medianGrowth();
sizes.push(youngMb());
process.stdout.write(
  JSON.stringify({
    youngMb: sizes,
    full: [quietFull, saturatedFull],
    growth: [quietGrowth, saturatedGrowth],
    resident: resident.length,
  }),
);
