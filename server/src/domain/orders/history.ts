/** The order's timeline (orderHistory): one row per move, and one per refund, never edited. */
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { writeWithNext } from '../../db/together.js';
import { appendRowsQuery } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf } from '../../resources/storage.js';

const orderHistory = getResource('orderHistory');

export interface HistoryEntry {
  orderId: number;
  operatorId: number | null;
  from: string | null;
  to: string;
  note?: string | null;
}

/** Appends the entries, in their order, in one statement. */
export async function writeHistory(trx: AnyDb, entries: readonly HistoryEntry[], now: number): Promise<void> {
  if (entries.length === 0) return;
  // Sent with the transaction's next statement on PostgreSQL (db/together.ts).
  await writeWithNext(
    trx,
    appendRowsQuery(
      trx,
      orderHistory,
      entries.map((entry) => ({
        orderId: entry.orderId,
        operatorId: entry.operatorId,
        fromStatus: entry.from,
        toStatus: entry.to,
        note: entry.note ?? null,
      })),
      now,
    ),
  );
}

/** API.md `GET /api/admin/orders/{id}/history`: `[{from, to, operator, note, at}]`, oldest first. */
export async function readHistory(db: AnyDb, orderId: number) {
  const table = modelOf(orderHistory).table;
  const rows = await db
    .selectFrom(`${table} as h`)
    .leftJoin('users as u', 'u.id', 'h.operator_id')
    .select([
      'h.from_status as from',
      'h.to_status as to',
      'h.operator_id as operatorId',
      sql<string | null>`coalesce(u.nickname, u.username)`.as('operator'),
      'h.note as note',
      'h.created_at as at',
    ])
    .where('h.order_id', '=', orderId)
    .orderBy('h.created_at')
    .orderBy('h.id')
    .execute();
  return rows.map((r) => ({
    from: r.from ?? null,
    to: r.to,
    operatorId: r.operatorId == null ? null : Number(r.operatorId),
    operator: r.operator ?? (r.operatorId == null ? '系统' : null),
    note: r.note ?? null,
    at: new Date(Number(r.at)).toISOString(),
  }));
}
