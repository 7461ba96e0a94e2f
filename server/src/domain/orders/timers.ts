/**
 * The order machine's timers (DOMAIN.md; server/src/scheduler): every 30 s (the environment's
 * `ORDER_TIMERS_EVERY_MS` changes it, config.ts), unpaid orders older than the platform's
 * `unpaidCancelMinutes` (15) are cancelled (`expire`), and delivery orders still delivering or
 * delivered `deliveryCompleteMinutes` (120) after they left the store are completed
 * (`autoComplete`) — as sky-take-out and 美团 close orders nobody closed. Each order moves through
 * the machine as the system, in its own audited transaction, so one order that cannot move
 * (changed meanwhile) does not hold up the rest; the leased scheduler runs the task
 * once per period in the whole cluster, and the conditional status update makes a second run
 * harmless anyway.
 */
import { getResource } from '@wanxiang/core';
import type { FastifyInstance } from 'fastify';
import { planLiterals } from '../../db/plan-literal.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf } from '../../resources/storage.js';
import type { ScheduledTask } from '../../scheduler/task.js';
import { type MoveServices, moveOrder } from './moves.js';
import { orderSettings } from './settings.js';

export const ORDER_TIMERS_TASK = 'orders.timers';
/** The timers' period unless the server's config says otherwise (`orderTimersEveryMs`). */
export const ORDER_TIMERS_EVERY_MS = 30_000;
const BATCH = 200;
const MINUTE = 60_000;

const orders = getResource('orders');
const SYSTEM = { user: null, ip: null };

async function due(db: AnyDb, status: string[], stamp: string, before: number): Promise<number[]> {
  const rows = await db
    .selectFrom(modelOf(orders).table)
    .select('id')
    .where('status', 'in', planLiterals(status))
    .where(stamp, '<', before)
    .orderBy(stamp)
    .limit(BATCH)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Runs the timers once at `now`; answers how many orders each moved. */
export async function runOrderTimers(
  engine: ResourceEngine,
  db: AnyDb,
  now: number,
  services: MoveServices = {},
  signal?: AbortSignal,
): Promise<{ expired: number; completed: number; failed: number }> {
  const settings = await orderSettings(db);
  const result = { expired: 0, completed: 0, failed: 0 };
  const jobs: [string, number[]][] = [
    ['expire', await due(db, ['pending_payment'], 'created_at', now - settings.unpaidCancelMinutes * MINUTE)],
    [
      'autoComplete',
      await due(
        db,
        ['delivering', 'delivered'],
        'delivering_at',
        now - settings.deliveryCompleteMinutes * MINUTE,
      ),
    ],
  ];
  for (const [move, ids] of jobs)
    for (const id of ids) {
      if (signal?.aborted) return result;
      try {
        await engine.writeRow(orders, id, move, SYSTEM, (ctx) =>
          moveOrder(ctx, services, id, move, { actor: 'system', userId: null }),
        );
        if (move === 'expire') result.expired++;
        else result.completed++;
      } catch {
        // Moved by someone else since it was read (409): nothing to do.
        result.failed++;
      }
    }
  return result;
}

export function orderTasks(app: FastifyInstance, services: MoveServices = {}): ScheduledTask[] {
  return [
    {
      name: ORDER_TIMERS_TASK,
      everyMs: app.config.orderTimersEveryMs ?? ORDER_TIMERS_EVERY_MS,
      async run(ctx) {
        const moved = await runOrderTimers(
          app.resources,
          ctx.db as unknown as AnyDb,
          ctx.now(),
          services,
          ctx.signal,
        );
        if (moved.expired + moved.completed > 0) ctx.log.info(moved, 'order timers moved orders');
      },
    },
  ];
}
