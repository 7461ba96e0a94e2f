/**
 * Print job rows (core's `printJobs`): written queued in the transaction of whatever asked for
 * the print, then moved by the sender (service.ts) as each conditional UPDATE of row-change.ts
 * allows — queued → printing → done | failed — so two senders never print one job twice.
 */
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import {
  columnOf,
  type DbRow,
  modelOf,
  toDbValues,
  toWireRow,
  type WireRow,
} from '../../resources/storage.js';

export const printJobsDef = getResource('printJobs');
export const printersDef = getResource('printers');
const ordersDef = getResource('orders');
const storesDef = getResource('stores');

export const jobModel = () => modelOf(printJobsDef);
export const printerModel = () => modelOf(printersDef);

export type JobKind = 'receipt' | 'test';
export type JobStatus = 'queued' | 'printing' | 'done' | 'failed';

/** The longest error kept with a job (the field's max). */
const ERROR_MAX = 500;

export interface NewJob {
  printerId: number;
  orderId: number | null;
  kind: JobKind;
  copies: number;
  operatorId: number | null;
  now: number;
  /** Why it waits (a printer known to be down: the service's HELD_JOB_ERROR); null otherwise. */
  error?: string | null;
}

/** Writes a queued job (in the caller's transaction); answers its id. */
export async function queueJob(trx: AnyDb, job: NewJob): Promise<number> {
  return (await queueJobs(trx, [job]))[0] as number;
}

/** What every job starts as: queued, not tried, nothing sent. */
const NEW_JOB = { status: 'queued', attempts: 0, bytes: 0, printedAt: null } as const;

/** Writes queued jobs in one statement (in the caller's transaction); answers their ids, in order. */
export async function queueJobs(trx: AnyDb, jobs: readonly NewJob[]): Promise<number[]> {
  if (jobs.length === 0) return [];
  const model = jobModel();
  const rows = (await trx
    .insertInto(model.table)
    .values(
      jobs.map((job) => ({
        ...toDbValues(model, {
          printerId: job.printerId,
          orderId: job.orderId,
          kind: job.kind,
          copies: job.copies,
          error: job.error ?? null,
          operatorId: job.operatorId,
          ...NEW_JOB,
        }),
        created_at: job.now,
        updated_at: job.now,
      })),
    )
    .returning(sql.ref('id').as('id'))
    .execute()) as { id: number | string }[];
  // Ids come from the sequence in the rows' order; sorted all the same, since RETURNING's order
  // is not promised.
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

export interface NewReceipts {
  orderId: number;
  storeId: number;
  operatorId: number | null;
  now: number;
  /** Printers whose jobs are written held (found down: the service's `downPrinters`), and why. */
  held: readonly number[];
  heldError: string;
}

/**
 * The INSERT … SELECT that queues the order's receipt on every live printer of its store that
 * prints on acceptance, with the printer's copies (run in the caller's transaction; its rows read
 * by `queuedReceipts`): the printers are not read first — that read was one more round trip on
 * every automatically accepted payment. A printer in `held` gets its job with `heldError`.
 */
export function queueReceiptsQuery(trx: AnyDb, receipts: NewReceipts) {
  const model = jobModel();
  const printer = printerModel();
  const column = (m: typeof model, field: string) => columnOf(m, field) as string;
  // The same for every printer's job, as queueJobs writes them.
  const same = Object.entries({
    ...toDbValues(model, {
      orderId: receipts.orderId,
      kind: 'receipt',
      operatorId: receipts.operatorId,
      ...NEW_JOB,
    }),
    created_at: receipts.now,
    updated_at: receipts.now,
  });
  // No printer has the id 0: an empty list held stays valid SQL.
  const held = receipts.held.length > 0 ? receipts.held : [0];
  const copies = sql.ref(column(printer, 'copies'));
  return trx
    .insertInto(model.table)
    .columns([
      column(model, 'printerId'),
      column(model, 'copies'),
      column(model, 'error'),
      ...same.map(([name]) => name),
    ] as never)
    .expression(
      trx
        .selectFrom(printer.table)
        .select([
          sql.ref('id').as('printer'),
          // As queueJob's callers do (`Number(copies) || 1`): copies missing or 0 print one.
          sql`coalesce(nullif(${copies}, 0), 1)`.as('copies'),
          sql`case when ${sql.ref('id')} in (${sql.join(held)}) then ${receipts.heldError} end`.as('error'),
          ...same.map(([name, value]) => sql`${value}`.as(name)),
        ] as never)
        .where(sql.ref(column(printer, 'storeId')), '=', receipts.storeId)
        .where(sql.ref('deleted_at'), 'is', null)
        .where(sql.ref(column(printer, 'autoPrintOnAccept')), '=', 1)
        .orderBy(sql.ref('id')) as never,
    )
    .returningAll();
}

/**
 * What `queueReceiptsQuery` wrote, by id: each job as written (what the sender needs, so it does
 * not read them back after the commit), and whether it was written held.
 */
export function queuedReceipts(rows: readonly unknown[]): { held: boolean; job: WireRow }[] {
  return (rows as DbRow[])
    .map((row) => ({ held: row.error !== null, job: toWireRow(jobModel(), row) }))
    .sort((a, b) => a.job.id - b.job.id);
}

async function rowOf(db: AnyDb, table: string, id: number, live = false): Promise<DbRow | undefined> {
  let qb = db.selectFrom(table).selectAll().where(sql.ref('id'), '=', id);
  if (live) qb = qb.where(sql.ref('deleted_at'), 'is', null);
  return (await qb.executeTakeFirst()) as DbRow | undefined;
}

export async function jobOf(db: AnyDb, id: number): Promise<WireRow | null> {
  const row = await rowOf(db, jobModel().table, id);
  return row ? toWireRow(jobModel(), row) : null;
}

/** A printer, deleted ones too (a job keeps pointing at its printer); `deleted` says which. */
export async function printerOf(db: AnyDb, id: number): Promise<(WireRow & { deleted: boolean }) | null> {
  const row = await rowOf(db, printerModel().table, id);
  return row ? { ...toWireRow(printerModel(), row), deleted: row.deleted_at !== null } : null;
}

/** The store's live printers, oldest first. */
export async function storePrinters(db: AnyDb, storeId: number): Promise<WireRow[]> {
  const model = printerModel();
  const rows = (await db
    .selectFrom(model.table)
    .selectAll()
    .where(sql.ref('store_id'), '=', storeId)
    .where(sql.ref('deleted_at'), 'is', null)
    .orderBy(sql.ref('id'))
    .execute()) as DbRow[];
  return rows.map((row) => toWireRow(model, row));
}

export async function orderOf(db: AnyDb, id: number): Promise<WireRow | null> {
  const model = modelOf(ordersDef);
  const row = await rowOf(db, model.table, id);
  return row ? toWireRow(model, row) : null;
}

export async function storeNameOf(db: AnyDb, id: number): Promise<string | null> {
  const model = modelOf(storesDef);
  const row = await rowOf(db, model.table, id);
  return row ? String(row.name) : null;
}

/** Moves a job on, only while it holds one of `from`; answers the row after, or undefined. */
export async function moveJob(
  db: AnyDb,
  id: number,
  now: number,
  from: readonly JobStatus[],
  values: Record<string, unknown>,
): Promise<WireRow | undefined> {
  if (typeof values.error === 'string') values.error = values.error.slice(0, ERROR_MAX);
  const row = await changeRow(db, jobModel(), id, now, { values, when: { status: from } });
  bumpVersion(db, printJobsDef.name);
  return row ? toWireRow(jobModel(), row) : undefined;
}

/** A printer's status after a try: online (and seen now), or in error. */
export async function markPrinter(
  db: AnyDb,
  id: number,
  now: number,
  reached: boolean,
  ok: boolean,
): Promise<void> {
  const values: Record<string, unknown> = { status: ok ? 'online' : 'error' };
  if (reached) values.lastSeenAt = now;
  await changeRow(db, printerModel(), id, now, { values });
  bumpVersion(db, printersDef.name);
}

/**
 * Jobs nobody is sending: queued and last changed before `before.queued`, or printing and last
 * changed before `before.printing` (their sender died). Oldest first.
 */
export async function pendingJobs(
  db: AnyDb,
  before: { queued: number; printing: number },
): Promise<WireRow[]> {
  const model = jobModel();
  const rows = (await db
    .selectFrom(model.table)
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb(sql.ref('status'), '=', 'queued'), eb(sql.ref('updated_at'), '<', before.queued)]),
        eb.and([eb(sql.ref('status'), '=', 'printing'), eb(sql.ref('updated_at'), '<', before.printing)]),
      ]),
    )
    .orderBy(sql.ref('id'))
    .execute()) as DbRow[];
  return rows.map((row) => toWireRow(model, row));
}
