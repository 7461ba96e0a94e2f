/**
 * Core's generic form messages (spec §5) in antd's template syntax: core writes `{label}`,
 * antd's Form fills `${label}`. Every antd Form gets them through ConfigProvider.
 */
import { formMessages } from '@wanxiang/core';
import type { FormProps } from 'antd';

type ValidateMessages = NonNullable<FormProps['validateMessages']>;

const toAntd = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => `\${${name}}`);

function convert<T extends Record<string, unknown>>(group: T): { [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(group).map(([k, v]) => [k, toAntd(String(v))])) as {
    [K in keyof T]: string;
  };
}

const invalidType = toAntd(formMessages.invalidType);
const TYPES = [
  'string',
  'method',
  'array',
  'object',
  'number',
  'date',
  'boolean',
  'integer',
  'float',
  'regexp',
  'email',
  'url',
  'hex',
] as const;

export const validateMessages: ValidateMessages = {
  required: toAntd(formMessages.required),
  whitespace: toAntd(formMessages.whitespace),
  enum: toAntd(formMessages.enum),
  types: Object.fromEntries(TYPES.map((type) => [type, invalidType])),
  string: convert(formMessages.string),
  number: convert(formMessages.number),
  array: convert(formMessages.array),
  pattern: convert(formMessages.pattern),
};
