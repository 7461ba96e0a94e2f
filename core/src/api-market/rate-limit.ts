/**
 * The gateway's rate limit: a fixed one-minute window per key and API (Kong's rate-limiting
 * plugin per consumer and service, `minute` window), the limit being the API's
 * `rateLimitPerMin`. Fixed windows, not sliding ones: one counter row per key, API and minute,
 * which two server processes share through the database (a sliding log would be a row per
 * call). The price is Kong's too: up to twice the limit across a window boundary.
 *
 * Every metered call counts (successes, errors, calls refused for want of quota): the limit
 * protects the tools, and a failing call costs them as much as a good one. A call refused by the
 * rate limit itself does not count — the window does not grow past its limit.
 */
export const RATE_WINDOW_MS = 60_000;

export interface RateWindow {
  /** Epoch ms of the window's first instant. */
  start: number;
  /** Epoch ms of the instant the next window begins. */
  end: number;
}

export function rateWindowOf(now: number, windowMs: number = RATE_WINDOW_MS): RateWindow {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/** The `X-RateLimit-*` headers: the limit, calls left in the window, and the window's end in epoch seconds. */
export function rateLimitHeaders(
  limit: number,
  used: number,
  window: RateWindow,
): { 'x-ratelimit-limit': string; 'x-ratelimit-remaining': string; 'x-ratelimit-reset': string } {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - used)),
    'x-ratelimit-reset': String(Math.ceil(window.end / 1000)),
  };
}

/** Whole seconds until the window ends (at least 1), for `Retry-After` on a 429. */
export function retryAfterSeconds(now: number, window: RateWindow): number {
  return Math.max(1, Math.ceil((window.end - now) / 1000));
}
