/**
 * A value written into the SQL text instead of bound as a parameter, so that PostgreSQL plans
 * the statement for it.
 *
 * Why: the server names its statements (connect.ts), and PostgreSQL plans a named statement for
 * any parameter value once it has run five times (its generic plan), from the column's average
 * selectivity. For a skewed column that is the wrong plan for the rare values — the ones a list,
 * a timer or a dispatcher looks for. Over a million orders, 1.4 % of them `paid`, `status = $1`
 * newest first walked the newest-first index and dropped ~1 100 other orders to find 20 (190
 * buffers, 0.85 ms) where the (status, created_at, id) index reads 21 (0.14 ms); the order
 * timers' `status in ($1, $2) and delivering_at < $3` read the whole table in parallel (270–300
 * ms, every 30 s). With the value in the text each value is a statement of its own, planned for it.
 *
 * Only for values from a closed set — a status the code names, an enum's option, 0 or 1 — so the
 * texts stay as few as the values. Anything else is refused here: user input stays bound.
 * SQLite plans without looking at values and is given the same text.
 */
import { type RawBuilder, sql } from 'kysely';

const WORD = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `planLiteral` takes the value: a word of letters, digits, `_` and `-`, or a whole number. */
export function fitsPlanLiteral(value: unknown): value is string | number {
  return typeof value === 'number'
    ? Number.isSafeInteger(value)
    : typeof value === 'string' && WORD.test(value);
}

export function planLiteral<T extends string | number>(value: T): RawBuilder<T> {
  if (!fitsPlanLiteral(value)) throw new Error(`not a closed set's value: ${JSON.stringify(value)}`);
  return sql.lit(value);
}

/** `planLiteral` for each value of an `in` list, sorted and once each: one text per set. */
export function planLiterals<T extends string | number>(values: readonly T[]): RawBuilder<T>[] {
  return [...new Set(values)].sort().map(planLiteral);
}
