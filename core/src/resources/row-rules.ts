/**
 * Rules across the fields of one row, declared in its definition (`rules`): a 代金券 needs its
 * 面额, 固定日期 needs both dates and the end after the start. Each rule reads the whole row in
 * the wire shape (money in fen, instants as ISO text) and answers the fields it finds wrong with
 * a Chinese message each, or nothing. The server checks them on a create's values and on an
 * update's values laid over the stored row (422 `data.fields`), the admin form on what it is
 * about to send — the same functions, so the two always say the same.
 *
 * No zod here: the definitions import this, and the admin lists load the definitions.
 */

export type RowValues = Readonly<Record<string, unknown>>;

/** Per-field messages of a row that breaks a rule; null or undefined when it holds. */
export type RowRule = (row: RowValues) => Record<string, string> | null | undefined;

/** Every rule's messages, the first one of each field; empty when the row keeps them all. */
export function rowRuleErrors(rules: readonly RowRule[] | undefined, row: RowValues): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const rule of rules ?? []) {
    for (const [name, message] of Object.entries(rule(row) ?? {})) fields[name] ??= message;
  }
  return fields;
}

const given = (v: unknown) => v !== null && v !== undefined && v !== '';
const timeOf = (v: unknown): number | null => {
  if (!given(v)) return null;
  const ms = typeof v === 'number' ? v : Date.parse(String(v));
  return Number.isFinite(ms) ? ms : null;
};

/** `field` must be given (a number: above 0) when `when` holds for the row. */
export function requiredWhen(when: (row: RowValues) => boolean, field: string, message: string): RowRule {
  return (row) => {
    if (!when(row)) return null;
    const value = row[field];
    const missing = !given(value) || (typeof value === 'number' && value <= 0);
    return missing ? { [field]: message } : null;
  };
}

/**
 * When both are given, `end` must be later than `start` (the message goes on `end`). Either may be
 * left open unless another rule requires it.
 */
export function endsAfterStart(start: string, end: string, message = '结束时间须晚于开始时间'): RowRule {
  return (row) => {
    const from = timeOf(row[start]);
    const to = timeOf(row[end]);
    return from !== null && to !== null && to <= from ? { [end]: message } : null;
  };
}
