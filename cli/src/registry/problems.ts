/**
 * Per-field messages — from core's validation before sending, or a server's 422 — as the
 * operator fixes them: the field's Chinese label, the flag that sets it, the message.
 */
import type { FieldDef, FieldErrors } from '@wanxiang/core';
import { CliError, type ExitCodeValue } from '../errors';
import type { FieldFlag } from './field-flags';

/** Flags of the list query that are not fields. */
const QUERY_FLAGS: Record<string, string> = {
  page: '--page',
  pageIndex: '--page',
  limit: '--limit',
  pageSize: '--limit',
  sort: '--sort',
  q: '--q',
};

/** `fields` of a resource or an action's `input`: where the labels come from. */
export type Labelled = Record<string, FieldDef> | null;

export function fieldProblems(
  fields: FieldErrors,
  labelled: Labelled,
  flags: readonly FieldFlag[],
): string[] {
  return Object.entries(fields).map(([key, message]) => {
    const given = flags.find((f) => f.key === key);
    const flag = given?.option.long ?? QUERY_FLAGS[key];
    const label = given?.def.label ?? labelled?.[key]?.label;
    const name = label ? `${label}（${flag ?? key}）` : (flag ?? key);
    return `${name}：${message}`;
  });
}

export function invalidInput(
  message: string,
  fields: FieldErrors,
  labelled: Labelled,
  flags: readonly FieldFlag[],
  exitCode: ExitCodeValue,
): CliError {
  return new CliError(message, { exitCode, hint: fieldProblems(fields, labelled, flags).join('\n  ') });
}
