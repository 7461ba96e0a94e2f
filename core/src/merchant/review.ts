/**
 * The admin's review of a merchant application (wechat/merchant): the page's sections (the same
 * four steps the applicant filled in), which stored field shows a secret (its masked companion),
 * the next states the review machine allows, and the one rule for a rejection's reasons — used by
 * the review form before sending and by the server's reject action, which refuses what it breaks.
 */
import { applicableActions } from '../resources/actions';
import type { ActionDef } from '../resources/define';
import type { Validation } from '../resources/schema';
import { AUDIT_ITEMS_MAX, AUDIT_REASON_MAX, type AuditDetailItem } from './audit-detail';
import { MERCHANT_JOIN_FIELDS, MERCHANT_JOIN_STEPS, merchantApplications, merchantFieldLabel } from './join';

export { AUDIT_REASON_MAX, type AuditDetailItem };

/** The page's sections, in the applicant's order (contact, subject, business, settlement). */
export const MERCHANT_REVIEW_SECTIONS = MERCHANT_JOIN_STEPS;

/**
 * The stored field to display for an application field: write-only secrets (ID number, bank
 * account) are never read back, their masked companion (masking.ts, filled by the server) is.
 */
export function merchantDisplayField(field: string): string {
  const def = merchantApplications.fields[field as keyof typeof merchantApplications.fields];
  return def && 'writeOnly' in def && def.writeOnly ? `${field}Masked` : field;
}

/** The review's buttons for a row: the machine's transitions from its state (reject among them). */
export function merchantReviewActions(row: { status?: unknown }): ActionDef[] {
  return applicableActions(merchantApplications, row as Record<string, unknown>);
}

/**
 * A rejection's reasons, checked field by field: at least one field; only fields the applicant
 * filled in, each once; every ticked field with a reason of at most AUDIT_REASON_MAX characters.
 * Messages are keyed by the field at fault (`auditDetail` for the list as a whole), reasons trimmed.
 */
export function validateRejection(detail: unknown): Validation<AuditDetailItem[]> {
  if (!Array.isArray(detail)) return { ok: false, fields: { auditDetail: '请勾选有问题的字段并写明原因' } };
  if (detail.length === 0) return { ok: false, fields: { auditDetail: '请至少勾选一个有问题的字段' } };
  if (detail.length > AUDIT_ITEMS_MAX)
    return { ok: false, fields: { auditDetail: `最多${AUDIT_ITEMS_MAX}条驳回原因` } };
  const fields: Record<string, string> = {};
  const value: AuditDetailItem[] = [];
  const seen = new Set<string>();
  for (const item of detail) {
    const field = typeof item?.field === 'string' ? item.field : '';
    if (!MERCHANT_JOIN_FIELDS.includes(field)) {
      fields.auditDetail = field ? `没有「${field}」这个字段` : '驳回原因须注明字段';
      continue;
    }
    const label = merchantFieldLabel(field);
    if (seen.has(field)) {
      fields[field] = `「${label}」重复了`;
      continue;
    }
    seen.add(field);
    const reason = typeof item.reason === 'string' ? item.reason.trim() : '';
    if (!reason) fields[field] = `请填写「${label}」的驳回原因`;
    else if (reason.length > AUDIT_REASON_MAX)
      fields[field] = `「${label}」的驳回原因最多${AUDIT_REASON_MAX}个字符`;
    else value.push({ field, reason });
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, value };
}
