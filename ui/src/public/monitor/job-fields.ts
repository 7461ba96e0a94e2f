/**
 * The job form's fields, labelled and bounded as core's monitorJobs definition (its texts through
 * monitor/labels.ts, which a test holds to the definition): antd rules from the limits and patterns.
 */
import { type FieldDef, jobTargetProblem } from '@wanxiang/core';
import type { Rule } from 'antd/es/form';
import { JOB_FIELDS, type JobFieldName } from '../../monitor/labels';

type FieldName = JobFieldName;

export function fieldOf(name: FieldName): FieldDef {
  return JOB_FIELDS[name];
}

export const label = (name: FieldName) => fieldOf(name).label;
export const help = (name: FieldName) => fieldOf(name).help;

export function kindOptions(): { value: string; label: string }[] {
  const field = fieldOf('kind');
  return field.type === 'enum' ? field.options.map((o) => ({ value: o.value, label: o.label })) : [];
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

/** The url as each kind wants it: core's rule, which the server applies on save. */
export function urlRule(kind: string): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const problem = typeof value === 'string' && value !== '' ? jobTargetProblem(kind, value) : null;
      if (problem) throw new Error(problem);
    },
  };
}
