/**
 * Maintenance mode while a restore replaces the data (README.md): writes are refused with
 * 503 维护中 — the way Discourse goes read-only during a restore — and reads go on. Before the
 * restore starts it waits until the writes already running have answered, so none of them
 * commits into the data being replaced.
 *
 * Registered at the root right after the database (app.ts), so the hook runs before every route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../http/envelope.js';

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: Maintenance;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const COUNTED = Symbol('wanxiang.countedWrite');

export const maintenanceUnavailable = () =>
  new ApiError({
    status: 503,
    errorCode: 503,
    message: '维护中：正在恢复备份，暂不能修改数据，请稍后再试',
    headers: { 'retry-after': '30' },
  });

export class Maintenance {
  private reason: string | null = null;
  private writes = 0;
  private readonly idle: (() => void)[] = [];

  /** What is running (a restore), or null. */
  get active(): string | null {
    return this.reason;
  }

  /** Writes answered so far are let through; new ones refused. Throws if already in maintenance. */
  begin(reason: string): void {
    if (this.reason !== null) throw maintenanceUnavailable();
    this.reason = reason;
  }

  end(): void {
    this.reason = null;
  }

  /**
   * Resolves once no write other than `own` (the restore request itself) is running, or fails
   * after `ms`.
   */
  async drained(own: number, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.writes > own) {
      if (Date.now() > deadline) throw maintenanceUnavailable();
      await new Promise<void>((resolve) => {
        this.idle.push(resolve);
        setTimeout(resolve, 50).unref();
      });
    }
  }

  started(request: FastifyRequest): void {
    (request as unknown as Record<symbol, boolean>)[COUNTED] = true;
    this.writes++;
  }

  finished(request: FastifyRequest): void {
    const marked = request as unknown as Record<symbol, boolean>;
    if (!marked[COUNTED]) return;
    marked[COUNTED] = false;
    this.writes--;
    for (const wake of this.idle.splice(0)) wake();
  }
}

/** The restore route itself is a write that must pass (it starts maintenance). */
const RESTORE_URL = '/api/admin/restore';

export const maintenancePlugin = fp(
  async (app: FastifyInstance) => {
    const maintenance = new Maintenance();
    app.decorate('maintenance', maintenance);
    app.addHook('onRequest', async (request) => {
      if (READS.has(request.method)) return;
      if (maintenance.active !== null && request.url.split('?')[0] !== RESTORE_URL)
        throw maintenanceUnavailable();
      maintenance.started(request);
    });
    app.addHook('onResponse', async (request) => maintenance.finished(request));
    app.addHook('onRequestAbort', async (request) => maintenance.finished(request));
  },
  { name: 'wanxiang-maintenance' },
);
