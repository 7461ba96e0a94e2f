import { setTimeout as delay } from 'node:timers/promises';

/** Polls `check` until it holds, or fails after `ms` naming what it waited for (no fixed sleeps). */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(10);
  }
}
