/**
 * A domain area (`server/src/domain/<area>/`) says what it adds to the server in one value, and
 * the server takes it from one list (areas.ts) instead of files that register themselves when
 * imported:
 *
 * - `register(engine)` hands the resource engine the area's action handlers, resource hooks and
 *   storage. Seeders and scripts that write through the engine without a server call it too
 *   (`engineExtensions()`), so they hash passwords and write roles exactly as the server does.
 * - `routes` is its Fastify plugin (routes, decorators, timers), registered in the list's order.
 *
 * Adding a domain action with a server-side effect: declare it in core's definition, and give it
 * its handler in `register` of the area's folder (server/src/resources/README.md has an example).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { EngineExtensions } from '../resources/extensions.js';

export interface DomainArea {
  readonly name: string;
  register?(engine: EngineExtensions): void;
  readonly routes?: FastifyPluginAsync;
}
