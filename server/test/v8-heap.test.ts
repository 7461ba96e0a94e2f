/**
 * The heap's policy (src/v8-heap.ts), observed in a process of its own: while the server is not
 * saturated the young generation keeps its starting size and the old one is collected after a
 * quarter's growth; while it is, both grow by V8's own factors.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./helpers/heap-probe.ts', import.meta.url));

it('grows the young generation and spaces out full collections only while requests wait for a turn', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  const { youngMb, full } = JSON.parse(stdout) as { youngMb: number[]; full: number[] };
  const [started = 0, quiet, saturated] = youngMb;
  expect(started).toBeGreaterThan(0);
  expect(quiet).toBe(started);
  expect(saturated).toBeGreaterThanOrEqual(4 * started);
  // The same garbage: 18–19 full collections quiet; saturated, 2 with V8's factor, 11 when the
  // old generation's quarter held there too (a larger young generation alone promotes less).
  const [quietFull = 0, saturatedFull = 0] = full;
  expect(quietFull).toBeGreaterThan(0);
  expect(saturatedFull * 4).toBeLessThanOrEqual(quietFull);
});
