/**
 * The order timers (src/domain/orders/timers.ts) in two real server processes on one database
 * (test/scheduler/fixtures: the whole app, listening, scheduler on, `ORDER_TIMERS_EVERY_MS` at a
 * quarter of a second instead of 30 s): unpaid orders past their 15 minutes are cancelled once,
 * and a delivery order delivering past the configured time is completed once, between them.
 *
 * The orders are placed through an app in this process (scheduler off) while nothing is due;
 * once both processes run the timers, one transaction moves the orders' stamps back (created
 * 16 minutes ago, out for delivery 121 minutes ago) — the clock moving on, for both processes at
 * once. Waits are on conditions with a deadline.
 *
 * What the orders can and cannot prove. A move is a conditional UPDATE (`WHERE status = from`,
 * moves.ts) followed, in the same transaction, by its effects (coupon, points, stock, delivery)
 * and its history row. A second run of the timers — in the other process, even at the same
 * moment — either no longer selects the order (it is not due in its status any more) or loses
 * the UPDATE (no row: 409, its transaction rolled back) and writes nothing. So one history row,
 * one points refund and one coupon back per order would hold even if both processes ran every
 * period: they are checked below as the outcome users see, not as proof of the lease. A double
 * run still shows in the runs themselves, and those are checked too:
 *
 * - the fixture records every run of the real `orders.timers` task (TEST_RECORD_TASK): process,
 *   run number, start and end. With the lease, runs start at least a period apart, never
 *   overlap, and are numbered 1, 2, 3… exactly as the lease row counts them. Without it, both
 *   processes run in each period: two runs start within one period, and may overlap. (Checked
 *   by hand by dropping the `expires_at <= now` condition from `takeLease`: every assertion on
 *   the orders still passed, and "run … started too soon" failed, on both databases.)
 * - every move's history row was written inside exactly one recorded run (its time lies between
 *   that run's start and end), which names the process that moved it; the processes' own log
 *   lines of the task (`order timers moved orders`: expired, completed, failed) name the same
 *   runs, add up to the orders due, and count no failure. That catches a race only when it split
 *   the orders between runs (a run that moved nothing logs nothing): the runs' records above are
 *   the sure check.
 *
 * Which process acts is whichever holds the lease then (often the first one, which keeps the
 * task while it lives — scheduler/README.md); the test does not require both to act, only both
 * to run the scheduler with the task, which their logs show.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movePoints } from '../../src/domain/finance/ledger.js';
import { ORDER_TIMERS_TASK } from '../../src/domain/orders/timers.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { modelOf } from '../../src/resources/storage.js';
import { readLease } from '../../src/scheduler/index.js';
import {
  createTestDatabase,
  DB_KINDS,
  startTestApp,
  type TestApp,
  TestClock,
  type TestDatabase,
} from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import {
  createRunsTable,
  killAll,
  type RunRow,
  type RunsDb,
  readRuns,
  type ServerProcess,
  startServerProcess,
  until,
} from '../scheduler/fixtures/server-processes.js';
import { anyDb, balanceOf, type OrderWorld, orderWorld, placeOrder, sendOut } from './fixture.js';

const MINUTE = 60_000;
const EVERY_MS = 250;
const UNPAID = 4;
const POINTS_PER_ORDER = 100;
const ORDERS = modelOf(getResource('orders')).table;

interface MovedLine {
  holder: string;
  run: number;
  expired: number;
  completed: number;
  failed: number;
}

describe.each(DB_KINDS)('order timers in two server processes on one %s database', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let db: AnyDb;
  let database: TestDatabase | undefined;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // The orders' stamps in real time: the processes' clocks are the real one.
    const clock = new TestClock();
    clock.current = Date.now();
    t = await startTestApp(kind, { db: database, clock });
    db = anyDb(t);
    await createRunsTable(db as unknown as RunsDb, kind);
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 100_000 });
  });

  afterAll(async () => {
    await killAll(processes);
    await t?.close();
    await database?.drop();
  });

  const statuses = async (ids: number[]) =>
    (await db.selectFrom(ORDERS).select(['id', 'status']).where('id', 'in', ids).orderBy('id').execute()).map(
      (r) => String(r.status),
    );
  const pointsOf = async (user: number) =>
    Number(
      (await db.selectFrom('users').select('points').where('id', '=', user).executeTakeFirstOrThrow()).points,
    );
  const stockRows = () =>
    db
      .selectFrom('goods')
      .select(['id', 'stock', 'specs'])
      .where('store_id', '=', w.storeId)
      .orderBy('id')
      .execute();

  it('cancel each unpaid order once and complete the delivery once, in one run at a time', {
    timeout: 90_000,
  }, async () => {
    // --- The world: points and coupons to spend, unpaid orders spending them, one out for delivery.
    await t.app.db
      .transaction()
      .execute((trx) =>
        movePoints({ trx, now: t.clock.now() }, { userId: w.customer, change: 1000, reason: 'adjust' }),
      );
    const template = await api.post('/api/admin/couponTemplates', {
      name: '满30减5',
      kind: 'cash',
      valueFen: 500,
      thresholdFen: 3000,
      validity: 'relative',
      validDays: 7,
      perUserLimit: 10,
    });
    expect(template.status, template.text).toBe(200);
    const unpaid: { id: number; couponId: number }[] = [];
    for (let i = 0; i < UNPAID; i++) {
      const issued = await api.post(`/api/admin/couponTemplates/${template.body.data.id}/issue`, {
        userIds: [w.customer],
      });
      expect(issued.status, issued.text).toBe(200);
      const coupon = await db
        .selectFrom('user_coupons')
        .select('id')
        .where('user_id', '=', w.customer)
        .where('status', '=', 'unused')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const couponId = Number(coupon.id);
      const order = await placeOrder(api, w, {
        fulfilment: 'pickup',
        address: null,
        couponId,
        points: POINTS_PER_ORDER,
      });
      expect(order).toMatchObject({ status: 'pending_payment', couponId, pointsUsed: POINTS_PER_ORDER });
      unpaid.push({ id: order.id, couponId });
    }
    const delivery = await placeOrder(api, w);
    await sendOut(api, w, delivery.id);
    const unpaidIds = unpaid.map((o) => o.id);
    const allIds = [...unpaidIds, delivery.id];
    const before = {
      points: await pointsOf(w.customer),
      balance: await balanceOf(t, w.customer),
      stock: await stockRows(),
    };

    // --- Two processes running the timers, nothing due yet.
    const env = {
      ORDER_TIMERS_EVERY_MS: String(EVERY_MS),
      TEST_RECORD_TASK: ORDER_TIMERS_TASK,
      // The scheduler's start and the task's "moved" lines are at info.
      LOG_LEVEL: 'info',
    };
    const runs = () => readRuns(db as unknown as RunsDb);
    const a = await startServerProcess(t.db, env, processes);
    const b = await startServerProcess(t.db, env, processes);
    const bothUp = Date.now();
    await until(
      'three runs of the timers with both processes up',
      async () => (await runs()).filter((r) => r.started_at >= bothUp).length >= 3,
    );
    expect(await statuses(allIds)).toEqual([...unpaidIds.map(() => 'pending_payment'), 'delivering']);

    // --- The clock moves on for both at once: the unpaid orders are 16 minutes old, the delivery
    // left the store 121 minutes ago.
    await t.app.db.transaction().execute(async (trx) => {
      const tx = trx as unknown as AnyDb;
      await tx
        .updateTable(ORDERS)
        .set({ created_at: Date.now() - 16 * MINUTE })
        .where('id', 'in', unpaidIds)
        .execute();
      await tx
        .updateTable(ORDERS)
        .set({ delivering_at: Date.now() - 121 * MINUTE })
        .where('id', '=', delivery.id)
        .execute();
    });
    await until('every due order moved', async () =>
      (await statuses(allIds)).every((s) => s === 'cancelled' || s === 'completed'),
    );
    // Three more periods: time for a second run, in either process, to act again if it would.
    const moved = Date.now();
    await until(
      'three more runs after the orders moved',
      async () => (await runs()).filter((r) => r.started_at >= moved).length >= 3,
    );
    for (const p of [a, b]) p.child.kill('SIGTERM');
    expect(await a.exited, a.output()).toBe(0);
    expect(await b.exited, b.output()).toBe(0);

    // --- The orders: each moved once, by the system, everything given back once.
    expect(await statuses(allIds)).toEqual([...unpaidIds.map(() => 'cancelled'), 'completed']);
    const history = await db
      .selectFrom('order_history')
      .select(['order_id', 'from_status', 'to_status', 'operator_id', 'note', 'created_at'])
      .where('order_id', 'in', allIds)
      .where('to_status', 'in', ['cancelled', 'completed'])
      .orderBy('order_id')
      .orderBy('id')
      .execute();
    expect(history.map((h) => ({ ...h, created_at: undefined }))).toEqual([
      ...unpaidIds.map((id) => ({
        order_id: id,
        from_status: 'pending_payment',
        to_status: 'cancelled',
        operator_id: null,
        note: '超时取消（系统）',
        created_at: undefined,
      })),
      {
        order_id: delivery.id,
        from_status: 'delivering',
        to_status: 'completed',
        operator_id: null,
        note: '自动完成（系统）',
        created_at: undefined,
      },
    ]);
    const audit = await db
      .selectFrom('audit_logs')
      .select(['record_id', 'action', 'user_id'])
      .where('resource', '=', 'orders')
      .where('record_id', 'in', allIds)
      .where('action', 'in', ['orders.expire', 'orders.autoComplete'])
      .orderBy('record_id')
      .orderBy('id')
      .execute();
    expect(audit.map((r) => ({ ...r, record_id: Number(r.record_id) }))).toEqual([
      ...unpaidIds.map((id) => ({ record_id: id, action: 'orders.expire', user_id: null })),
      { record_id: delivery.id, action: 'orders.autoComplete', user_id: null },
    ]);
    // Coupons back, once each (a coupon is given back only from `used`).
    const coupons = await db
      .selectFrom('user_coupons')
      .select(['id', 'status', 'order_id'])
      .where(
        'id',
        'in',
        unpaid.map((o) => o.couponId),
      )
      .orderBy('id')
      .execute();
    expect(coupons.map((c) => ({ ...c, id: Number(c.id) }))).toEqual(
      unpaid.map((o) => ({ id: o.couponId, status: 'unused', order_id: null })),
    );
    // Points: one refund per cancelled order, one award for the completed one.
    const ledger = await db
      .selectFrom('points_ledger')
      .select(['ref_id', 'reason', 'change'])
      .where('ref_id', 'in', allIds)
      .where('reason', 'in', ['refund', 'order'])
      .orderBy('ref_id')
      .orderBy('id')
      .execute();
    const paid = await db
      .selectFrom(ORDERS)
      .select(['paid_fen', 'refunded_fen'])
      .where('id', '=', delivery.id)
      .executeTakeFirstOrThrow();
    const award = Math.floor((Number(paid.paid_fen) - Number(paid.refunded_fen)) / 100);
    expect(award).toBeGreaterThan(0);
    expect(
      ledger.map((l) => ({ ref_id: Number(l.ref_id), reason: l.reason, change: Number(l.change) })),
    ).toEqual([
      ...unpaidIds.map((id) => ({ ref_id: id, reason: 'refund', change: POINTS_PER_ORDER })),
      { ref_id: delivery.id, reason: 'order', change: award },
    ]);
    expect(await pointsOf(w.customer)).toBe(before.points + UNPAID * POINTS_PER_ORDER + award);
    // Stock is reserved on payment (moves.ts releaseStock): the unpaid orders held none and got
    // none back; completing the delivery leaves its reservation sold. Money did not move.
    expect(await stockRows()).toEqual(before.stock);
    expect(await balanceOf(t, w.customer)).toBe(before.balance);
    const deliveryRow = await db
      .selectFrom('deliveries')
      .select('status')
      .where('order_id', '=', delivery.id)
      .executeTakeFirstOrThrow();
    expect(deliveryRow.status).toBe('delivered');
    const runner = await db
      .selectFrom('runners')
      .select('status')
      .where('id', '=', w.runner)
      .executeTakeFirstOrThrow();
    expect(runner.status).toBe('idle');

    // --- The runs: one per period between the two processes, as the lease counted them.
    const all = await runs();
    const first = all[0]?.started_at ?? 0;
    const name = (holder: string) => (holder === a.holder ? 'A' : holder === b.holder ? 'B' : holder);
    const summary = all
      .map(
        (r) => `${r.run} ${name(r.holder)} +${r.started_at - first}…${(r.finished_at ?? Number.NaN) - first}`,
      )
      .join('\n');
    expect(
      all.map((r) => r.run),
      summary,
    ).toEqual(all.map((_r, i) => i + 1));
    expect(
      all.every((r) => r.holder === a.holder || r.holder === b.holder),
      summary,
    ).toBe(true);
    for (let i = 1; i < all.length; i++) {
      const [prev, run] = [all[i - 1] as RunRow, all[i] as RunRow];
      expect(
        run.started_at - prev.started_at,
        `run ${run.run} started too soon:\n${summary}`,
      ).toBeGreaterThanOrEqual(EVERY_MS);
      expect(run.started_at, `run ${run.run} overlapped run ${prev.run}:\n${summary}`).toBeGreaterThanOrEqual(
        prev.finished_at ?? Number.POSITIVE_INFINITY,
      );
    }
    expect(await readLease(t.app.db, ORDER_TIMERS_TASK)).toMatchObject({ runs: all.length, lastError: null });
    // Each move happened inside one recorded run; name the process that made it.
    const actingRuns = history.map((h) => {
      const at = Number(h.created_at);
      const inside = all.filter((r) => r.started_at <= at && at <= (r.finished_at ?? Number.NaN));
      expect(inside, `order ${h.order_id} moved at +${at - first}:\n${summary}`).toHaveLength(1);
      return inside[0] as RunRow;
    });

    // --- Each process's own account of its runs: both ran the scheduler with the order timers,
    // and the runs that moved orders moved each due order once, failing none.
    const movedLines: MovedLine[] = [];
    for (const p of [a, b]) {
      const lines = p
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const started = lines.find((l) => l.msg === 'scheduler started' && l.holder === p.holder);
      expect(started, p.output()).toMatchObject({ holder: p.holder });
      expect(started?.tasks).toContain(ORDER_TIMERS_TASK);
      for (const l of lines)
        if (l.msg === 'order timers moved orders' && l.task === ORDER_TIMERS_TASK)
          movedLines.push({
            holder: p.holder,
            run: Number(l.run),
            expired: Number(l.expired),
            completed: Number(l.completed),
            failed: Number(l.failed),
          });
    }
    expect(
      movedLines.reduce((n, l) => n + l.expired, 0),
      summary,
    ).toBe(UNPAID);
    expect(
      movedLines.reduce((n, l) => n + l.completed, 0),
      summary,
    ).toBe(1);
    expect(
      movedLines.filter((l) => l.failed > 0),
      summary,
    ).toEqual([]);
    // The runs that logged moves are the runs the history rows fall in, with the same process.
    const byRun = (r: { holder: string; run: number }) => `${name(r.holder)}#${r.run}`;
    expect(new Set(movedLines.map(byRun))).toEqual(new Set(actingRuns.map(byRun)));
  });
});
