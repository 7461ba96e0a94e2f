/** What the oms area hands the resource engine: the store's delete refusal. */
import type { EngineExtensions } from '../../resources/extensions.js';
import { storeHooks } from './stores.js';

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('stores', storeHooks);
}
