/**
 * The public merchant application (/merchant_join): the registry's merchantApplications fields a
 * visitor fills in, grouped into the form's four steps, and their validation — the same zod
 * schemas (resources/schema.ts) the server applies to the whole body, so a step that passes here
 * cannot fail on the server for a field of that step.
 */
import { z } from 'zod';
import { MERCHANT_STATUS, merchantApplications } from '../resources/definitions/merchant';
import { fieldErrors, fieldSchema, type Validation, validateBody } from '../resources/schema';

export { MERCHANT_STATUS, merchantApplications };

export interface MerchantJoinStep {
  key: 'contact' | 'subject' | 'business' | 'settlement';
  title: string;
  description: string;
  fields: readonly string[];
}

export const MERCHANT_JOIN_STEPS: readonly MerchantJoinStep[] = [
  {
    key: 'contact',
    title: '联系人',
    description: '负责进件的超级管理员',
    fields: ['contactName', 'contactMobile', 'contactEmail'],
  },
  {
    key: 'subject',
    title: '主体资料',
    description: '营业执照与法定代表人',
    fields: ['subjectType', 'merchantName', 'licenseNumber', 'licenseImage', 'legalPerson', 'idNumber'],
  },
  {
    key: 'business',
    title: '经营资料',
    description: '简称、客服电话与经营场景',
    fields: ['shortName', 'servicePhone', 'scenes'],
  },
  {
    key: 'settlement',
    title: '结算账户',
    description: '收款的银行账户',
    fields: ['bankAccountType', 'accountName', 'bankName', 'bankBranch', 'accountNumber'],
  },
];

/** Every field a visitor sends (the number is assigned by the server). */
export const MERCHANT_JOIN_FIELDS: readonly string[] = MERCHANT_JOIN_STEPS.flatMap((s) => s.fields);

/** The step (index) a field belongs to, for jumping to the first step with a server-side error. */
export function merchantStepOf(field: string): number {
  const index = MERCHANT_JOIN_STEPS.findIndex((s) => s.fields.includes(field));
  return Math.max(0, index);
}

/** The Chinese label of a merchantApplications field (for per-field rejection reasons). */
export function merchantFieldLabel(field: string): string {
  return merchantApplications.fields[field as keyof typeof merchantApplications.fields]?.label ?? field;
}

export function merchantStatusLabel(status: string): string {
  return MERCHANT_STATUS.find((o) => o.value === status)?.label ?? status;
}

/** Validates one step's fields as a create would (other fields are not looked at). */
export function validateMerchantStep(
  step: number,
  values: Record<string, unknown>,
): Validation<Record<string, unknown>> {
  const def = MERCHANT_JOIN_STEPS[step];
  if (!def) return { ok: false, fields: { _: '没有这一步' } };
  const shape: Record<string, z.ZodType> = {};
  const picked: Record<string, unknown> = {};
  for (const name of def.fields) {
    const field = merchantApplications.fields[name as keyof typeof merchantApplications.fields];
    shape[name] = fieldSchema(field, 'create');
    picked[name] = values[name];
  }
  const result = z.object(shape).safeParse(picked);
  return result.success ? { ok: true, value: result.data } : { ok: false, fields: fieldErrors(result.error) };
}

/**
 * The whole application with the number the server assigned: exactly the registry's create
 * validation (unknown fields refused, required fields present, patterns checked).
 */
export function validateMerchantJoin(values: unknown, number: string): Validation<Record<string, unknown>> {
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return { ok: false, fields: { _: '请求内容须为对象' } };
  return validateBody(merchantApplications, { ...values, number }, 'create');
}

/** What GET /api/public/merchant-applications/{number} answers: no personal or masked data. */
export interface MerchantApplicationStatus {
  number: string;
  status: string;
  statusLabel: string;
  shortName: string;
  submittedAt: string | null;
  updatedAt: string;
  /** When rejected: which fields to fix and why. */
  auditDetail: { field: string; label: string; reason: string }[];
  /** Whether the same number may be submitted again (rejected). */
  canResubmit: boolean;
}
