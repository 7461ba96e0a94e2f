/**
 * The body of a create, update or action from `--data` and the field flags (flags win), checked
 * with core's validateBody / validateInput — the validation the server runs — before anything is
 * sent. A server 422 is shown the same way.
 */

import type { Readable } from 'node:stream';
import {
  type ActionDef,
  type FieldErrors,
  isApiError,
  type ResourceDef,
  type ValidationMode,
  validateBody,
  validateInput,
  validateRow,
} from '@wanxiang/core';
import { CliError, ExitCode } from '../errors';
import { readDataOption } from '../io/data-input';
import { bodyValue, type FieldFlag, givenFlags } from './field-flags';
import { invalidInput } from './problems';

export interface BodyOptions extends Record<string, unknown> {
  data?: string;
}

/** The body, and the flags whose text could not be read as their field's type. */
async function assemble(
  flags: readonly FieldFlag[],
  options: BodyOptions,
  stdin: Readable,
): Promise<{ body: Record<string, unknown>; problems: FieldErrors }> {
  const body = options.data !== undefined ? await readDataOption(options.data, stdin) : {};
  const problems: FieldErrors = {};
  for (const { flag, text } of givenFlags(options, flags)) {
    const parsed = bodyValue(flag.def, text);
    if (parsed.ok) body[flag.field] = parsed.value;
    else problems[flag.field] = parsed.message;
  }
  return { body, problems };
}

const notSent = (def: ResourceDef, fields: FieldErrors, flags: readonly FieldFlag[]) =>
  invalidInput(`${def.title}的内容有误，未提交`, fields, def.fields, flags, ExitCode.failure);

export async function resourceBody(
  def: ResourceDef,
  mode: ValidationMode,
  flags: readonly FieldFlag[],
  options: BodyOptions,
  stdin: Readable,
): Promise<Record<string, unknown>> {
  const { body, problems } = await assemble(flags, options, stdin);
  if (mode === 'update' && Object.keys(body).length === 0 && Object.keys(problems).length === 0) {
    throw new CliError('没有要修改的字段', {
      exitCode: ExitCode.usage,
      hint: `用字段选项（如 --name 新名称）或 --data 给出要改的内容；\`wanxiang update ${def.name} --help\` 列出字段`,
    });
  }
  // Every problem at once: the flags that could not be read, and what core's check says of the rest.
  const checked = validateBody(def, body, mode);
  // A new row is whole: the definition's cross-field rules apply to it here already (an update's
  // are checked by the server against the stored row).
  const rules = checked.ok && mode === 'create' ? validateRow(def, checked.value) : null;
  const fields = {
    ...(checked.ok ? {} : checked.fields),
    ...(rules && !rules.ok ? rules.fields : {}),
    ...problems,
  };
  if (Object.keys(fields).length > 0) throw notSent(def, fields, flags);
  // The body as given: the server applies defaults and normalises on its side.
  return body;
}

export async function actionBody(
  action: ActionDef,
  flags: readonly FieldFlag[],
  options: BodyOptions,
  stdin: Readable,
): Promise<Record<string, unknown>> {
  const { body, problems } = await assemble(flags, options, stdin);
  const checked = validateInput(action.input ?? {}, body, action.rules);
  const fields = { ...(checked.ok ? {} : checked.fields), ...problems };
  if (Object.keys(fields).length > 0) {
    throw invalidInput(
      `${action.label}的参数有误，未提交`,
      fields,
      action.input ?? {},
      flags,
      ExitCode.failure,
    );
  }
  return body;
}

/** A server 422 with per-field messages, shown like the client-side check; anything else as is. */
export function serverRejection(error: unknown, def: ResourceDef, flags: readonly FieldFlag[]): unknown {
  if (isApiError(error) && error.status === 422 && Object.keys(error.fields).length > 0) {
    return invalidInput(`服务端拒绝：${error.message}`, error.fields, def.fields, flags, ExitCode.failure);
  }
  return error;
}
