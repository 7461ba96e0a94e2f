/**
 * The resource engine's public surface. Importing it also loads the domain areas' handlers and
 * hooks (domain/extensions.ts), so a seeder that writes through `insertRows` hashes passwords
 * and writes roles exactly as the server does.
 */
import '../domain/extensions.js';

export { type Diff, diffRows } from './audit.js';
export { COUNT_TTL_MS } from './counts.js';
export {
  illegalTransition,
  type ListAnswer,
  type RawQuery,
  ResourceEngine,
  staleUpdate,
  unsupported,
} from './engine.js';
export { EXPORT_BATCH } from './export/source.js';
export { exportStream } from './export/stream.js';
export {
  type ActionContext,
  type ActionHandler,
  type ActionHandlerSpec,
  type Actor,
  assertActionHandlers,
  type CustomStore,
  EngineExtensions,
  extensions,
  MissingHandlersError,
  missingActionHandlers,
  type ResourceHooks,
  registerActionHandler,
  registerResourceHooks,
  type WriteContext,
} from './extensions.js';
export { resourcesPlugin } from './plugin.js';
export { applySchemaOps, diffSchema, introspectSchema, type SchemaOp } from './schema-ops.js';
export { type InsertRowsOptions, insertRows } from './seed.js';
export {
  type DbRow,
  fromDbValue,
  MASK,
  modelOf,
  type ResourceModel,
  toDbValue,
  toDbValues,
  toWireRow,
  type WireRow,
} from './storage.js';
export { type TableSpec, tableSpecOf } from './table-spec.js';
