/**
 * The marketing area's timers (server/src/scheduler/README.md).
 *
 * Coupons expire: every minute, each unused coupon (`userCoupons`) whose `expiresAt` has come
 * becomes `expired`. The moment itself counts as expired — a coupon is usable while
 * now < expiresAt, as the demo content writes them (demo/src/marketing.ts). Decisions:
 * - no audit entry per coupon: the expiry is the system keeping a stated date, not someone's
 *   change (美团/饿了么 show it as 已过期 in the log, with no operator); the row's `updatedAt`
 *   says when it happened;
 * - batches of 1 000 rows, each its own statement, so a campaign whose 100 000 coupons end at
 *   the same minute does not hold SQLite's writer for seconds; the run stops between batches
 *   when its signal says so (shutdown), and the next run carries on;
 * - after a change, the list totals of userCoupons are dropped in this process (the engine's
 *   `bumpVersion`); other processes' totals catch up within their 10 s TTL.
 */
import type { FastifyInstance } from 'fastify';
import { planLiteral } from '../../db/plan-literal.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import type { ScheduledTask } from '../../scheduler/task.js';

export const EXPIRE_COUPONS_TASK = 'marketing.expireCoupons';
export const EXPIRE_COUPONS_EVERY_MS = 60_000;
const BATCH = 1000;

/** Marks up to `BATCH` unused coupons whose time has come at `now` as expired; answers how many. */
async function expireBatch(db: AnyDb, now: number): Promise<number> {
  const result = await db
    .updateTable('user_coupons')
    .set({ status: 'expired', updated_at: nextUpdatedAt(now) })
    .where(
      'id',
      'in',
      db
        .selectFrom('user_coupons')
        .select('id')
        .where('status', '=', planLiteral('unused'))
        .where('expires_at', '<=', now)
        .limit(BATCH),
    )
    // Re-checked on the row as written: a coupon used meanwhile stays used.
    .where('status', '=', 'unused')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Expires every unused coupon whose time has come at `now`, batch by batch; answers how many. */
export async function expireCoupons(db: AnyDb, now: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = await expireBatch(db, now);
    total += changed;
    if (changed < BATCH || signal?.aborted) return total;
  }
}

export function marketingTasks(app: FastifyInstance): ScheduledTask[] {
  return [
    {
      name: EXPIRE_COUPONS_TASK,
      everyMs: EXPIRE_COUPONS_EVERY_MS,
      async run(ctx) {
        const expired = await expireCoupons(ctx.db as unknown as AnyDb, ctx.now(), ctx.signal);
        if (expired > 0) {
          // The engine's totals hang off app.db (resources/counts.ts).
          bumpVersion(app.db, 'userCoupons');
          ctx.log.info({ expired }, 'coupons expired');
        }
      },
    },
  ];
}
