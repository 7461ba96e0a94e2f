/**
 * A domain area (`server/src/domain/<area>/`) says what it adds to the server in one value, and
 * the server takes it from one list (areas.ts) instead of files that register themselves when
 * imported:
 *
 * - `register(engine)` hands the resource engine the area's action handlers, resource hooks and
 *   storage. Seeders and scripts that write through the engine without a server call it too
 *   (`engineExtensions()`), so they hash passwords and write roles exactly as the server does.
 * - `routes` is its Fastify plugin (routes, decorators), registered in the list's order.
 * - `tasks(app)` gives its timers (order timeouts, expiries, sweeps): the scheduler runs each at
 *   its period under a database lease, once per cluster (server/src/scheduler/README.md). Called
 *   once every area's routes and the resource engine are registered, so a task may use
 *   `app.resources`, `app.hub` and the config; its body gets `{ db, now, signal, log }`.
 *
 * Adding a domain action with a server-side effect: declare it in core's definition, and give it
 * its handler in `register` of the area's folder (server/src/resources/README.md has an example).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { EngineExtensions } from '../resources/extensions.js';
import type { ScheduledTask } from '../scheduler/task.js';

export interface DomainArea {
  readonly name: string;
  register?(engine: EngineExtensions): void;
  readonly routes?: FastifyPluginAsync;
  tasks?(app: FastifyInstance): readonly ScheduledTask[];
}
