/**
 * Counts answered requests for the server monitor: the total since start, by status class,
 * and how many in the last minute (60 one-second buckets, so the figure slides smoothly).
 */
import fp from 'fastify-plugin';

export class RequestStats {
  total = 0;
  readonly byStatusClass: Record<string, number> = { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  private readonly counts = new Array<number>(60).fill(0);
  private readonly seconds = new Array<number>(60).fill(-1);

  record(statusCode: number, now: number): void {
    this.total += 1;
    const cls = `${Math.floor(statusCode / 100)}xx`;
    this.byStatusClass[cls] = (this.byStatusClass[cls] ?? 0) + 1;
    const second = Math.floor(now / 1000);
    const slot = second % 60;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] ?? 0) + 1;
  }

  /** Requests answered in the 60 seconds up to `now`. */
  lastMinute(now: number): number {
    const second = Math.floor(now / 1000);
    let sum = 0;
    for (let i = 0; i < 60; i++) {
      if ((this.seconds[i] ?? -1) > second - 60) sum += this.counts[i] ?? 0;
    }
    return sum;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requestStats: RequestStats;
  }
}

export const requestStatsPlugin = fp(
  async (app) => {
    const stats = new RequestStats();
    app.decorate('requestStats', stats);
    app.addHook('onResponse', (_request, reply, done) => {
      stats.record(reply.statusCode, app.config.now());
      done();
    });
  },
  { name: 'wanxiang-request-stats' },
);
