/**
 * Run in a child process by v8-heap.test.ts (V8's flags are process-wide): allocates objects that
 * survive a few scavenges, as requests waiting on the database do, first while the server is not
 * saturated, then while it is, and prints the young generation's size (MB) before and after each phase.
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { serving } from '../../src/v8-heap.js';

const youngMb = () =>
  (getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20;

let saturated = false;
serving(() => saturated);

/** ~64 MB allocated in turns, the last ~2 MB of it alive: each object outlives a few scavenges. */
async function work(): Promise<void> {
  const alive: unknown[] = new Array(20_000);
  for (let turn = 0; turn < 64; turn++) {
    for (let i = 0; i < 10_000; i++)
      alive[(turn * 10_000 + i) % alive.length] = { turn, i, text: `row ${i}`, at: [turn, i] };
    // The collector's entries reach the observer between turns, as between requests.
    await yieldTurn();
  }
}

// Its size after start-up (loading the code may have grown it before the policy was set).
const sizes: number[] = [youngMb()];
await work();
sizes.push(youngMb());
saturated = true;
await work();
sizes.push(youngMb());
process.stdout.write(JSON.stringify(sizes));
