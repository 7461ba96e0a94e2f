/** Supply chain: a purchase adds to the stock (and may update the cost price) in one UPDATE. */
import { sql } from 'kysely';
import { changeRowWhen } from '../../resources/actions.js';
import type { ActionContext, EngineExtensions } from '../../resources/extensions.js';

async function purchaseIn(ctx: ActionContext) {
  const qty = Number(ctx.input.qty);
  const cost = ctx.input.costFen;
  await changeRowWhen(
    ctx,
    {},
    cost === null || cost === undefined ? {} : { costFen: cost },
    // Added in SQL, so two purchases booked at once both count.
    { stock: sql`coalesce(stock, 0) + ${qty}` },
  );
  return undefined;
}

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('supplyProducts', 'purchaseIn', purchaseIn);
}
