/** Community moderation: rejecting a topic or a reply keeps the reason with it. */
import { changeRowAsDeclared } from '../../resources/actions.js';
import { type ActionContext, registerActionHandler } from '../../resources/extensions.js';

async function reject(ctx: ActionContext) {
  await changeRowAsDeclared(ctx, { status: 'rejected', rejectReason: ctx.input.reason });
  return undefined;
}

registerActionHandler('bbsTopics', 'reject', reject);
registerActionHandler('bbsPosts', 'reject', reject);
