/**
 * Option lists and small builders several definition modules share. Not a definition module
 * itself (the registry does not list it): it exports no ResourceDef.
 */
import type { ActionDef } from '../define';
import type { FieldDef } from '../fields';
import { f, options } from '../fields';

/** The on/off switch most configuration rows have. */
export const ENABLED_STATUS = options(['enabled', '启用', 'green'], ['disabled', '停用', 'default']);

/** A `status` field with the on/off switch, editable in the form. */
export const enabledStatus = (o: { readOnly?: boolean } = {}): FieldDef =>
  f.enum('状态', ENABLED_STATUS, { default: 'enabled', ...o });

/** Published or hidden, for content shown on the public site. */
export const VISIBILITY = options(['published', '公开', 'green'], ['hidden', '隐藏', 'default']);

/** antd's preset tag colours, as a colour choice for tags (the value is the antd colour). */
export const TAG_COLORS = options(
  ['magenta', '品红', 'magenta'],
  ['red', '红色', 'red'],
  ['volcano', '火山橙', 'volcano'],
  ['orange', '橙色', 'orange'],
  ['gold', '金色', 'gold'],
  ['lime', '青柠', 'lime'],
  ['green', '绿色', 'green'],
  ['cyan', '青色', 'cyan'],
  ['blue', '蓝色', 'blue'],
  ['geekblue', '极客蓝', 'geekblue'],
  ['purple', '紫色', 'purple'],
);

/** Every field marked read-only: rows written by the domain (ledgers, logs, metering). */
export function readOnlyFields<const T extends Record<string, FieldDef>>(fields: T): T {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, { ...field, readOnly: true }]),
  ) as T;
}

/** A pure state change of the `status` field (optionally stamping or clearing other fields). */
export function transition(
  name: string,
  label: string,
  from: readonly string[],
  to: string,
  extra: Partial<Omit<ActionDef, 'name' | 'label' | 'effect'>> & {
    set?: Record<string, 'now' | null>;
    field?: string;
  } = {},
): ActionDef {
  const { set, field = 'status', ...rest } = extra;
  return {
    name,
    label,
    ...rest,
    effect: { kind: 'transition', field, from, to, ...(set ? { set } : {}) },
  };
}

/** enable/disable transitions over ENABLED_STATUS. */
export const enableActions: readonly ActionDef[] = [
  transition('enable', '启用', ['disabled'], 'enabled'),
  transition('disable', '停用', ['enabled'], 'disabled', { danger: true }),
];

/** Common patterns (Chinese registries, network names). */
export const PATTERNS = {
  /** 统一社会信用代码: 18 characters, the alphabet without I, O, Z, S, V. */
  creditCode: '^[0-9A-HJ-NPQRTUWXY]{2}\\d{6}[0-9A-HJ-NPQRTUWXY]{10}$',
  /** 居民身份证号: 17 digits and a check digit or X. */
  idNumber: '^[1-9]\\d{16}[\\dXx]$',
  /** 律师执业证号: 17 digits. */
  lawyerLicence: '^\\d{17}$',
  /** Bank card or account number: 8–30 digits. */
  bankAccount: '^\\d{8,30}$',
  /** A lower-case host name with at least one dot; an optional leading `*.` wildcard. */
  domain: '^(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
  /** A host name or IPv4 address. */
  host: '^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?|\\d{1,3}(\\.\\d{1,3}){3})$',
  /** A code or key: a letter, then letters, digits, `_` or `-`. */
  code: '^[A-Za-z][A-Za-z0-9_-]*$',
} as const;
