/**
 * The job form's fields, labelled and bounded by core's monitorJobs definition (one source for the
 * Chinese labels, help texts, limits and patterns); the fields issue 16 adds (kind tcp, follow
 * redirects, ignore TLS errors) fall back to the labels below until the definition carries them.
 */
import { type FieldDef, monitorJobs } from '@wanxiang/core';
import type { Rule } from 'antd/es/form';

type FieldName =
  | 'name'
  | 'kind'
  | 'url'
  | 'method'
  | 'headers'
  | 'body'
  | 'intervalS'
  | 'retryIntervalS'
  | 'timeoutMs'
  | 'acceptedStatus'
  | 'keyword'
  | 'invertKeyword'
  | 'maxRetries'
  | 'followRedirects'
  | 'ignoreTls';

const FALLBACK: Partial<Record<FieldName, FieldDef>> = {
  followRedirects: { type: 'boolean', label: '跟随重定向', default: true, help: '关闭时 3xx 按状态码判定' },
  ignoreTls: { type: 'boolean', label: '忽略 TLS 错误', default: false, help: '证书无效也照常检查页面' },
};

const FIELDS = monitorJobs.fields as Record<string, FieldDef | undefined>;

export function fieldOf(name: FieldName): FieldDef {
  const field = FIELDS[name] ?? FALLBACK[name];
  if (!field) throw new Error(`monitorJobs has no field ${name}`);
  return field;
}

export const label = (name: FieldName) => fieldOf(name).label;
export const help = (name: FieldName) => fieldOf(name).help;

/** The kinds: the definition's, plus tcp (issue 16) while the definition does not list it yet. */
export function kindOptions(): { value: string; label: string }[] {
  const field = fieldOf('kind');
  const listed = field.type === 'enum' ? field.options.map((o) => ({ value: o.value, label: o.label })) : [];
  if (!listed.some((o) => o.value === 'tcp')) listed.splice(2, 0, { value: 'tcp', label: 'TCP 端口' });
  return listed;
}

export function methodOptions(): { value: string; label: string }[] {
  const field = fieldOf('method');
  return field.type === 'enum' ? field.options.map((o) => ({ value: o.value, label: o.label })) : [];
}

/** antd rules from the definition: required, length or range, pattern with its Chinese message. */
export function rulesOf(name: FieldName): Rule[] {
  const field = fieldOf(name);
  const rules: Rule[] = [];
  if (field.required) rules.push({ required: true, message: `请填写${field.label}` });
  if (field.type === 'string' || field.type === 'text') {
    if (field.max) rules.push({ max: field.max, message: `${field.label}最多 ${field.max} 个字符` });
  }
  if (field.type === 'string' && field.pattern)
    rules.push({
      pattern: new RegExp(field.pattern),
      message: field.patternMessage ?? `${field.label}格式不正确`,
    });
  if (field.type === 'integer') {
    const { min, max } = field;
    if (min !== undefined || max !== undefined)
      rules.push({
        type: 'number',
        min,
        max,
        message: `${field.label}须在 ${min ?? '-∞'} 到 ${max ?? '∞'} 之间`,
      });
  }
  return rules;
}

export function defaultOf(name: FieldName): unknown {
  return fieldOf(name).default;
}

/** The url as each kind wants it (the server checks the same: a definition rule). */
export function urlRule(kind: string): Rule {
  return kind === 'tcp'
    ? { pattern: /^tcp:\/\/[^\s/:]+:\d{1,5}$/, message: '须为 tcp://主机:端口，如 tcp://db.example.com:5432' }
    : { pattern: /^https?:\/\//, message: '须以 http:// 或 https:// 开头' };
}
