/**
 * Turns Fastify's JSON-schema (ajv) errors into the per-field Chinese messages of spec §5,
 * worded as core's `formMessages` so the server says what the UI forms say. A field's label
 * is the `title` of its schema (e.g. `{type: 'string', title: '用户名'}`), else its name.
 */
import { format, formMessages } from '@wanxiang/core';

/** The subset of an ajv ErrorObject we read. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

interface SchemaNode {
  title?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  number: '数字',
  integer: '整数',
  boolean: '布尔值',
  array: '数组',
  object: '对象',
  null: '空值',
  email: '邮箱地址',
  uri: '网址',
  'date-time': '日期时间',
  date: '日期',
};

function segments(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function labelOf(schema: SchemaNode | undefined, path: string[]): string {
  let node = schema;
  for (const seg of path) {
    node = node?.properties?.[seg] ?? (/^\d+$/.test(seg) ? node?.items : undefined);
  }
  return node?.title ?? path.at(-1) ?? '';
}

function messageFor(error: SchemaError, label: string): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return format(formMessages.required, { label });
    case 'minLength':
      // An empty string for a required text field reads as "please enter", not "at least 1 character".
      return Number(p.limit) <= 1
        ? format(formMessages.required, { label })
        : format(formMessages.string.min, { label, min: Number(p.limit) });
    case 'maxLength':
      return format(formMessages.string.max, { label, max: Number(p.limit) });
    case 'minimum':
    case 'exclusiveMinimum':
      return format(formMessages.number.min, { label, min: Number(p.limit) });
    case 'maximum':
    case 'exclusiveMaximum':
      return format(formMessages.number.max, { label, max: Number(p.limit) });
    case 'minItems':
      return format(formMessages.array.min, { label, min: Number(p.limit) });
    case 'maxItems':
      return format(formMessages.array.max, { label, max: Number(p.limit) });
    case 'enum':
      return format(formMessages.enum, {
        label,
        enum: ((p.allowedValues as unknown[]) ?? []).map(String).join(','),
      });
    case 'pattern':
      return format(formMessages.pattern.mismatch, { label, pattern: String(p.pattern) });
    case 'type':
      return format(formMessages.invalidType, { label, type: TYPE_NAMES[String(p.type)] ?? String(p.type) });
    case 'format':
      return format(formMessages.invalidType, {
        label,
        type: TYPE_NAMES[String(p.format)] ?? String(p.format),
      });
    case 'additionalProperties':
      return `不支持的字段 ${label}`;
    default:
      return `${label}格式不正确`;
  }
}

/**
 * `{field: message}` for the errors of one request part. The first error of a field wins
 * (ajv reports in schema order, so "required" before "too long").
 */
export function fieldMessages(errors: readonly SchemaError[], schema: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors) {
    const path = segments(error.instancePath);
    if (error.keyword === 'required') path.push(String(error.params.missingProperty));
    if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
    const field = path.join('.') || '_';
    if (fields[field] === undefined) {
      fields[field] = messageFor(error, labelOf(schema as SchemaNode | undefined, path));
    }
  }
  return fields;
}
