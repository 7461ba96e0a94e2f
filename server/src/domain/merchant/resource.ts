/**
 * Merchant onboarding (the review machine of WeChat Pay's 进件): rejecting an application under
 * review keeps the per-field reasons, so the applicant can fix exactly those and resubmit. The
 * reasons pass core's validateRejection (the review form's rule) before anything is written; the
 * transitions themselves are the registry's, refused with 409 from any other state.
 */
import { type AuditDetailItem, validateRejection } from '@wanxiang/core';
import { invalidInput } from '../../http/envelope.js';
import { changeRowAsDeclared } from '../../resources/actions.js';
import type { EngineExtensions } from '../../resources/extensions.js';

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('merchantApplications', 'reject', {
    // Checked before the state (bad reasons are a 422 whatever the row's state), outside the
    // transaction; the run stores what the rule answered (reasons trimmed).
    async prepare(ctx) {
      const checked = validateRejection(ctx.input.auditDetail);
      if (!checked.ok) throw invalidInput(checked.fields, Object.values(checked.fields)[0]);
      return checked.value;
    },
    async run(ctx) {
      await changeRowAsDeclared(ctx, { status: 'rejected', auditDetail: ctx.prepared as AuditDetailItem[] });
      return undefined;
    },
  });
}
