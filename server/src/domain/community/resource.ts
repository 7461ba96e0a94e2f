/** Community moderation: rejecting a topic or a reply keeps the reason with it. */
import { changeRowAsDeclared } from '../../resources/actions.js';
import type { ActionContext, EngineExtensions } from '../../resources/extensions.js';

async function reject(ctx: ActionContext) {
  await changeRowAsDeclared(ctx, { status: 'rejected', rejectReason: ctx.input.reason });
  return undefined;
}

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('bbsTopics', 'reject', reject);
  engine.registerActionHandler('bbsPosts', 'reject', reject);
}
