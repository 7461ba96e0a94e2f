/**
 * Community (README.md): moderation of topics and replies through the sensitive-word filter,
 * the word list's bulk import, and the chat bots' replies (admin test box and public API).
 */
import type { EngineExtensions } from '../../resources/extensions.js';
import type { DomainArea } from '../area.js';
import { chatBotRoutes } from './chat-bot-routes.js';
import { registerModeration } from './moderation.js';
import { WordFilterCache } from './word-filter.js';
import { registerWordImport } from './words-import.js';

function register(engine: EngineExtensions): void {
  // One filter per engine (per server and database): its cache key is that database's list.
  registerModeration(engine, new WordFilterCache());
  registerWordImport(engine);
}

export const communityArea: DomainArea = { name: 'community', register, routes: chatBotRoutes };
