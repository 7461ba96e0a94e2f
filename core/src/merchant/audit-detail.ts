/**
 * The stored shape of a rejection's reasons (WeChat Pay's audit_detail: [{field, reason}]) and
 * its limits. Kept free of imports so the registry's JSON shapes (resources/json-shapes.ts) can
 * use it without an import cycle. The shape is structural only: what makes a rejection valid
 * (at least one field, a known field once, a reason per field, its length) is one rule,
 * merchant/review.ts validateRejection, which the review form and the server's reject apply.
 */
import { z } from 'zod';

export const AUDIT_REASON_MAX = 200;
export const AUDIT_ITEMS_MAX = 30;

export const auditDetailSchema = z.array(
  z.object({ field: z.string('驳回字段须为文本'), reason: z.string('驳回原因须为文本') }),
  '驳回原因须为 [{field, reason}] 列表',
);

export interface AuditDetailItem {
  field: string;
  reason: string;
}
