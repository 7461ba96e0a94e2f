/**
 * Merchant onboarding (the review machine of WeChat Pay's 进件): rejecting an application under
 * review keeps the per-field reasons, so the applicant can fix exactly those and resubmit.
 */
import { changeRowAsDeclared } from '../../resources/actions.js';
import type { EngineExtensions } from '../../resources/extensions.js';

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('merchantApplications', 'reject', async (ctx) => {
    await changeRowAsDeclared(ctx, { status: 'rejected', auditDetail: ctx.input.auditDetail });
    return undefined;
  });
}
