/**
 * The one validation of a resource, derived from its definition as zod schemas with the zh-CN
 * form messages of spec §5. The server validates bodies with it, the UI's forms and the CLI check
 * input with it before sending.
 */
import { z } from 'zod';
import { format, formMessages } from '../i18n/zh-CN';
import { type ResourceDef, writableFields } from './define';
import type { FieldDef } from './fields';
import { JSON_SHAPES } from './json-shapes';
import { type RowRule, rowRuleErrors } from './row-rules';

export type ValidationMode = 'create' | 'update';

export type FieldErrors = Record<string, string>;

export type Validation<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors };

const PHONE = /^[0-9+\-\s()]{5,20}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const URLISH = /^(https?:\/\/|\/)[^\s]*$/;

const msg = (template: string, label: string, extra: Record<string, string | number> = {}) =>
  format(template, { label, ...extra });

function typeLabel(field: FieldDef): string {
  switch (field.type) {
    case 'integer':
    case 'money':
      return '整数';
    case 'number':
      return '数字';
    case 'boolean':
      return '布尔值';
    case 'datetime':
      return '日期时间';
    case 'date':
      return '日期';
    case 'enumList':
    case 'relationList':
    case 'stringList':
      return '列表';
    case 'relation':
      return '选项';
    default:
      return '文本';
  }
}

/** The zod schema of one field's value (not yet optional/nullable). */
export function fieldValueSchema(field: FieldDef): z.ZodType {
  const label = field.label;
  const invalid = msg(formMessages.invalidType, label, { type: typeLabel(field) });
  const base = {
    error: (issue: { input?: unknown }) =>
      issue.input == null ? msg(formMessages.required, label) : invalid,
  };
  const lengthChecks = (s: z.ZodString, min?: number, max?: number) => {
    let out = s;
    if (min !== undefined && max !== undefined) {
      out = out
        .min(min, msg(formMessages.string.range, label, { min, max }))
        .max(max, msg(formMessages.string.range, label, { min, max }));
    } else if (min !== undefined) out = out.min(min, msg(formMessages.string.min, label, { min }));
    else if (max !== undefined) out = out.max(max, msg(formMessages.string.max, label, { max }));
    return out;
  };
  const numberChecks = (n: z.ZodNumber, min?: number, max?: number) => {
    let out = n;
    const range = min !== undefined && max !== undefined;
    if (min !== undefined)
      out = out.min(
        min,
        range
          ? msg(formMessages.number.range, label, { min, max: max as number })
          : msg(formMessages.number.min, label, { min }),
      );
    if (max !== undefined)
      out = out.max(
        max,
        range
          ? msg(formMessages.number.range, label, { min: min as number, max })
          : msg(formMessages.number.max, label, { max }),
      );
    return out;
  };
  const listChecks = <T extends z.ZodType>(a: z.ZodArray<T>, min?: number, max?: number) => {
    let out = a;
    if (min !== undefined) out = out.min(min, msg(formMessages.array.min, label, { min }));
    if (max !== undefined) out = out.max(max, msg(formMessages.array.max, label, { max }));
    return out;
  };
  const enumValues = (opts: readonly { value: string }[]) =>
    opts.map((o) => o.value) as [string, ...string[]];
  const enumMessage = (opts: readonly { label: string }[]) =>
    msg(formMessages.enum, label, { enum: opts.map((o) => o.label).join(',') });

  switch (field.type) {
    case 'string': {
      let s = lengthChecks(z.string(base).trim(), field.min, field.max);
      const mismatch = msg(formMessages.invalidType, label, {
        type:
          field.format === 'email'
            ? '邮箱地址'
            : field.format === 'phone'
              ? '电话号码'
              : field.format === 'url'
                ? '网址'
                : '文本',
      });
      if (field.format === 'email') s = s.pipe(z.email(mismatch)) as unknown as z.ZodString;
      if (field.format === 'phone') s = s.regex(PHONE, mismatch);
      if (field.format === 'url') s = s.regex(URLISH, mismatch);
      if (field.pattern)
        s = s.regex(
          new RegExp(field.pattern),
          field.patternMessage
            ? `${label}${field.patternMessage.startsWith('请') ? '：' : ''}${field.patternMessage}`
            : msg(formMessages.pattern.mismatch, label, { pattern: field.pattern }),
        );
      return s;
    }
    case 'text':
    case 'markdown':
      return lengthChecks(z.string(base), undefined, field.max);
    case 'password':
      return lengthChecks(z.string(base), field.min, field.max);
    case 'integer':
    case 'money':
      return numberChecks(z.number(base).int(invalid), field.min, field.max);
    case 'number':
      return numberChecks(z.number(base), field.min, field.max);
    case 'boolean':
      return z.boolean(base);
    case 'datetime':
      return z
        .string(base)
        .refine((v) => !Number.isNaN(Date.parse(v)), invalid)
        .transform((v) => new Date(v).toISOString());
    case 'date':
      return z.string(base).regex(DATE, invalid);
    case 'enum':
      return z.enum(enumValues(field.options), {
        error: (i) => (i.input == null ? msg(formMessages.required, label) : enumMessage(field.options)),
      });
    case 'enumList':
      return listChecks(
        z.array(z.enum(enumValues(field.options), enumMessage(field.options)), base),
        field.min,
        field.max,
      );
    case 'relation':
      return z.number(base).int(invalid).positive(invalid);
    case 'relationList':
      return listChecks(z.array(z.number().int(invalid).positive(invalid), base), field.min, field.max);
    case 'stringList':
      return listChecks(
        z.array(
          z
            .string(invalid)
            .trim()
            .min(1, invalid)
            .max(field.itemMax ?? 100, msg(formMessages.string.max, label, { max: field.itemMax ?? 100 })),
          base,
        ),
        undefined,
        field.max,
      );
    case 'image':
    case 'file':
      return z.string(base).max(500, msg(formMessages.string.max, label, { max: 500 }));
    case 'json':
      return field.shape ? JSON_SHAPES[field.shape] : z.unknown();
  }
}

const isBlank = (v: unknown) => v === '' || (typeof v === 'string' && v.trim() === '');

/**
 * A field as it may appear in a body: on create a required field must be present and not blank
 * (one with a default may be left out: the default fills it); on update a required field may be
 * absent but not cleared; other fields may be null (a blank string clears them).
 */
export function fieldSchema(field: FieldDef, mode: ValidationMode): z.ZodType {
  const value = fieldValueSchema(field);
  const requiredMessage = msg(formMessages.required, field.label);
  if (field.required) {
    const present = z.preprocess(
      (v) => (isBlank(v) ? undefined : v),
      z.custom((v) => v !== undefined && v !== null, requiredMessage).pipe(value),
    );
    return mode === 'create' && field.default === undefined ? present : present.optional();
  }
  return z.preprocess((v) => (isBlank(v) ? null : v), value.nullable()).optional();
}

const cache = new WeakMap<ResourceDef, Partial<Record<ValidationMode, z.ZodType>>>();

/** The body schema of a resource: writable fields only; unknown and read-only fields are refused. */
export function resourceSchema(def: ResourceDef, mode: ValidationMode): z.ZodType<Record<string, unknown>> {
  const byMode = cache.get(def) ?? {};
  if (!byMode[mode]) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, field] of writableFields(def)) {
      if (mode === 'update' && field.createOnly) continue;
      shape[name] = fieldSchema(field, mode);
    }
    byMode[mode] = z.strictObject(shape, {
      error: (i) => (i.code === 'unrecognized_keys' ? '不支持的字段' : '请求内容须为对象'),
    });
    cache.set(def, byMode);
  }
  return byMode[mode] as z.ZodType<Record<string, unknown>>;
}

/** Per-field Chinese messages of a failed parse (the first message of each field). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= `不支持的字段 ${key}`;
      continue;
    }
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Validates a create or update body; defaults are applied on create. */
export function validateBody(
  def: ResourceDef,
  body: unknown,
  mode: ValidationMode,
): Validation<Record<string, unknown>> {
  const result = resourceSchema(def, mode).safeParse(body);
  if (!result.success) return { ok: false, fields: fieldErrors(result.error) };
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result.data)) if (v !== undefined) value[k] = v;
  if (mode === 'create') {
    for (const [name, field] of writableFields(def)) {
      if (value[name] === undefined && field.default !== undefined) value[name] = field.default;
    }
  }
  return { ok: true, value };
}

// An action's input is a constant of its definition: its schema is built once (building one and
// compiling it on its first parse costs more than the parse itself, on every call).
const inputCache = new WeakMap<Record<string, FieldDef>, z.ZodType<Record<string, unknown>>>();

function inputSchema(input: Record<string, FieldDef>): z.ZodType<Record<string, unknown>> {
  let schema = inputCache.get(input);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, field] of Object.entries(input)) shape[name] = fieldSchema(field, 'create');
    schema = z.object(shape) as z.ZodType<Record<string, unknown>>;
    inputCache.set(input, schema);
  }
  return schema;
}

/** Validates one action's input fields (all treated as a create), then its cross-field rules. */
export function validateInput(
  input: Record<string, FieldDef>,
  body: unknown,
  rules?: readonly RowRule[],
): Validation<Record<string, unknown>> {
  const result = inputSchema(input).safeParse(body ?? {});
  if (!result.success) return { ok: false, fields: fieldErrors(result.error) };
  const broken = rowRuleErrors(rules, result.data);
  return Object.keys(broken).length > 0 ? { ok: false, fields: broken } : { ok: true, value: result.data };
}

/**
 * The definition's cross-field rules on a whole row (a create's values, or an update's laid over
 * the stored row): per-field messages, or ok.
 */
export function validateRow(
  def: ResourceDef,
  row: Record<string, unknown>,
): Validation<Record<string, unknown>> {
  const broken = rowRuleErrors(def.rules, row);
  return Object.keys(broken).length > 0 ? { ok: false, fields: broken } : { ok: true, value: row };
}
