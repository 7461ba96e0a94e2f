/** What the marketing area hands the resource engine: its action handlers. */
import type { EngineExtensions } from '../../resources/extensions.js';
import { issueToUsers } from './coupon-templates.js';
import { generateBatch, voidBatch } from './exchange-codes.js';

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('couponTemplates', 'issue', issueToUsers);
  engine.registerCollectionHandler('exchangeCodes', 'generate', generateBatch);
  engine.registerCollectionHandler('exchangeCodes', 'voidBatch', voidBatch);
}
