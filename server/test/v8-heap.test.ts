/**
 * The young generation's policy (src/v8-heap.ts), observed in a process of its own: it keeps its
 * starting size under long-lived garbage while the server is not saturated, and grows while it is.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./helpers/young-generation-probe.ts', import.meta.url));

it('grows the young generation only while requests wait for a turn', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  const [started = 0, quiet, saturated] = JSON.parse(stdout) as number[];
  expect(started).toBeGreaterThan(0);
  expect(quiet).toBe(started);
  expect(saturated).toBeGreaterThanOrEqual(4 * started);
});
