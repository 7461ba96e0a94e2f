/** What the marketing area hands the resource engine: its action handlers (and the ledgers' adjustments). */
import type { EngineExtensions } from '../../resources/extensions.js';
import { issueToUsers } from './coupon-templates.js';
import { generateBatch, voidBatch } from './exchange-codes.js';
import { adjustBalance, adjustPoints } from './ledger-adjust.js';

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('couponTemplates', 'issue', issueToUsers);
  engine.registerCollectionHandler('exchangeCodes', 'generate', generateBatch);
  engine.registerCollectionHandler('exchangeCodes', 'voidBatch', voidBatch);
  // balanceLedger is the finance area's list; its adjustment is this area's operator workflow.
  engine.registerCollectionHandler('balanceLedger', 'adjust', adjustBalance);
  engine.registerCollectionHandler('pointsLedger', 'adjust', adjustPoints);
}
