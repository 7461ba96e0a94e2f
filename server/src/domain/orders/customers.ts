/**
 * The counter's member lookup (a counter order's customer): staff who take orders find the
 * customer by phone, username or nickname and see what they can pay with — balance and points.
 * Its own read because the users resource is the system area's (sys-user): an operator at the
 * counter may take orders without administering accounts, as in 美团's 收银 member lookup.
 */
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';

export interface CounterCustomer {
  id: number;
  username: string;
  nickname: string | null;
  phone: string | null;
  balanceFen: number;
  points: number;
}

const LIMIT = 10;

/** `%` and `_` are the user's text, not patterns. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Active users whose phone or username starts with `q`, or whose nickname contains it (10 at most). */
export async function findCustomers(db: AnyDb, q: string): Promise<CounterCustomer[]> {
  const text = q.trim().slice(0, 50);
  if (text === '') return [];
  const starts = `${literal(text)}%`;
  const contains = `%${literal(text)}%`;
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'phone', 'balance_fen', 'points'])
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb(sql`phone`, 'like', sql`${starts} escape '\\'`),
        eb(sql`username`, 'like', sql`${starts} escape '\\'`),
        eb(sql`nickname`, 'like', sql`${contains} escape '\\'`),
      ]),
    )
    .orderBy('id')
    .limit(LIMIT)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    username: String(r.username),
    nickname: (r.nickname as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    balanceFen: Number(r.balance_fen ?? 0),
    points: Number(r.points ?? 0),
  }));
}
