/**
 * A trailing debounce that also fires at least every `maxWaitMs` under a steady stream: a busy
 * lunch hour pushes an order news every second, and the board should refresh a few times a
 * minute rather than never (plain debounce) or on every message (no debounce).
 */
export interface Debounced {
  (): void;
  cancel(): void;
}

export function debounce(fn: () => void, waitMs: number, maxWaitMs = waitMs * 4): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let first: number | null = null;
  const run = () => {
    timer = null;
    first = null;
    fn();
  };
  const call = () => {
    const now = Date.now();
    first ??= now;
    if (timer) clearTimeout(timer);
    const wait = Math.max(0, Math.min(waitMs, first + maxWaitMs - now));
    timer = setTimeout(run, wait);
  };
  return Object.assign(call, {
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      first = null;
    },
  });
}
