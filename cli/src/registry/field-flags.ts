/**
 * A resource's fields as command-line flags, generated from its registry definition: filters
 * for `list`/`export` (`--status paid`, `--created-at-gte 2024-05-01`, `--status-in a,b`),
 * body fields for `create`/`update`, inputs for actions. Values are read with core's
 * parseFieldText and checked with core's validation; nothing here decides what is valid.
 */
import {
  type ActionDef,
  type FieldDef,
  type FilterOp,
  isFilterable,
  ORDERED_TYPES,
  parseFieldText,
  type ResourceDef,
  SYSTEM_FIELD_DEFS,
  writableFields,
} from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { normaliseDateTimeText } from './datetime-input';

export interface FieldFlag {
  option: Option;
  /** The field it sets or filters. */
  field: string;
  def: FieldDef;
  /** Filters only: the comparison, and the query key it becomes (`createdAt_gte`). */
  op?: FilterOp;
  key: string;
}

/** Flags of the commands themselves: a field with one of these names gets `--field-<name>`. */
const COMMAND_FLAGS = new Set([
  'api-url',
  'data',
  'format',
  'help',
  'if-match',
  'json',
  'limit',
  'output',
  'page',
  'progress',
  'q',
  'sort',
  'version',
  'with-total',
  'yes',
]);

export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function flagName(field: string, suffix = ''): string {
  const name = `${kebabCase(field)}${suffix}`;
  return COMMAND_FLAGS.has(name) ? `field-${name}` : name;
}

function placeholder(def: FieldDef): string {
  switch (def.type) {
    case 'integer':
      return '<整数>';
    case 'number':
      return '<数字>';
    case 'money':
      return '<分>';
    case 'boolean':
      return '[是/否]';
    case 'datetime':
      return '<时间>';
    case 'date':
      return '<日期>';
    case 'relation':
      return '<ID>';
    case 'relationList':
      return '<ID,…>';
    case 'enumList':
    case 'stringList':
      return '<值,…>';
    case 'json':
      return '<JSON>';
    case 'password':
      return '<密码>';
    default:
      return '<值>';
  }
}

/** What a value of the field looks like, for the help: enum values, units, formats. */
export function valueHint(def: FieldDef): string {
  switch (def.type) {
    case 'enum':
    case 'enumList':
      return def.options.map((o) => `${o.value}=${o.label}`).join(' ');
    case 'money':
      return '金额，单位分';
    case 'datetime':
      return '北京时间，如 2024-05-01 或 "2024-05-01 08:00"';
    case 'date':
      return 'YYYY-MM-DD';
    case 'boolean':
      return '是/否，true/false';
    case 'relation':
    case 'relationList':
      return `${def.resource} 的 ID`;
    case 'json':
      return 'JSON';
    default:
      return '';
  }
}

const withHint = (text: string, hint: string) => (hint ? `${text}（${hint}）` : text);

/** Filter flags of every filterable field, system fields (id, createdAt, updatedAt) included. */
export function filterFlags(def: ResourceDef): FieldFlag[] {
  const names = [...Object.keys(SYSTEM_FIELD_DEFS), ...Object.keys(def.fields)];
  const flags: FieldFlag[] = [];
  for (const name of names) {
    if (!isFilterable(def, name)) continue;
    const field = (SYSTEM_FIELD_DEFS[name] ?? def.fields[name]) as FieldDef;
    const hint = valueHint(field);
    // `ID 不小于`, `创建时间不小于`: a space only after a Latin label.
    const label = /[A-Za-z0-9]$/.test(field.label) ? `${field.label} ` : field.label;
    const add = (op: FilterOp, suffix: string, text: string, value = placeholder(field)) => {
      const option = new Option(`--${flagName(name, suffix)} ${value}`, text).helpGroup('筛选条件：');
      flags.push({ option, field: name, def: field, op, key: op === 'eq' ? name : `${name}_${op}` });
    };
    add('eq', '', withHint(field.label, hint));
    // Text has an order too (the API takes its ranges), but nobody filters names by range.
    if (ORDERED_TYPES.has(field.type) && field.type !== 'string') {
      const early = field.type === 'datetime' || field.type === 'date';
      add('gte', '-gte', `${label}${early ? '不早于' : '不小于'}（含）`);
      add('lte', '-lte', `${label}${early ? '不晚于（含；只写日期时含当天）' : '不大于（含）'}`);
    }
    if (['enum', 'relation', 'integer', 'string'].includes(field.type)) {
      add('in', '-in', `${label}为其中之一，逗号分隔`, '<值,…>');
    }
  }
  return flags;
}

/** Body flags: every field the client may send (on update, minus create-only fields). */
export function bodyFlags(def: ResourceDef, mode: 'create' | 'update'): FieldFlag[] {
  return writableFields(def)
    .filter(([, field]) => !(mode === 'update' && field.createOnly))
    .map(([name, field]) => inputFlag(name, field, mode === 'create', '字段：'));
}

export function actionFlags(action: ActionDef): FieldFlag[] {
  return Object.entries(action.input ?? {}).map(([name, field]) =>
    inputFlag(name, field, true, '操作参数：'),
  );
}

function inputFlag(name: string, field: FieldDef, creating: boolean, group: string): FieldFlag {
  const notes = [valueHint(field)];
  if (creating && field.required) notes.unshift('必填');
  if (creating && field.default !== undefined && field.default !== null)
    notes.push(`默认 ${String(field.default)}`);
  if (field.type === 'password') notes.push('命令行参数对本机其他用户可见，可改用 --data @文件');
  const option = new Option(
    `--${flagName(name)} ${placeholder(field)}`,
    withHint(field.label, notes.filter(Boolean).join('；')),
  ).helpGroup(group);
  return { option, field: name, def: field, key: name };
}

export function addFlags(command: Command, flags: readonly FieldFlag[]): void {
  for (const flag of flags) command.addOption(flag.option);
}

/** The flags given on the command line: option value by flag (a boolean flag alone is `true`). */
export function givenFlags(
  options: Record<string, unknown>,
  flags: readonly FieldFlag[],
): Array<{ flag: FieldFlag; text: string }> {
  const given: Array<{ flag: FieldFlag; text: string }> = [];
  for (const flag of flags) {
    const value = options[flag.option.attributeName()];
    if (value === undefined) continue;
    given.push({ flag, text: value === true ? 'true' : String(value) });
  }
  return given;
}

/** Filter flags as the raw list query (`{status: 'paid', createdAt_gte: '…+08:00'}`). */
export function filterQuery(given: ReadonlyArray<{ flag: FieldFlag; text: string }>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const { flag, text } of given) {
    query[flag.key] = flag.def.type === 'datetime' ? datetimeText(text, flag.op) : text;
  }
  return query;
}

function datetimeText(text: string, op: FilterOp | undefined): string {
  if (op === 'in')
    return text
      .split(',')
      .map((part) => normaliseDateTimeText(part))
      .join(',');
  return normaliseDateTimeText(text, op === 'lte' ? 'end' : 'start');
}

export type FieldValue = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A body field's value from its flag text. Lists are comma-separated (a string list may also be
 * a JSON array), JSON fields are JSON; an empty text is passed on as '' so core's validation
 * says whether the field may be cleared.
 */
export function bodyValue(field: FieldDef, text: string): FieldValue {
  if (text === '') return { ok: true, value: '' };
  switch (field.type) {
    case 'json':
      return parseJson(field, text);
    case 'stringList':
      if (text.trim().startsWith('[')) return parseJson(field, text);
      return {
        ok: true,
        value: text
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      };
    case 'enumList':
    case 'relationList': {
      const values: unknown[] = [];
      for (const part of text.split(',').map((p) => p.trim())) {
        if (part === '') continue;
        const parsed = parseFieldText(field, part);
        if (!parsed.ok) return parsed;
        values.push(parsed.value);
      }
      return { ok: true, value: values };
    }
    case 'datetime':
      return parseFieldText(field, normaliseDateTimeText(text));
    default:
      return parseFieldText(field, text);
  }
}

function parseJson(field: FieldDef, text: string): FieldValue {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: `${field.label}须为 JSON：${text}` };
  }
}
