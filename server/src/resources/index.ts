/**
 * The resource engine's public surface. What the domain areas add to it (handlers, hooks,
 * storage) is handed over explicitly: `engineExtensions()` in domain/areas.ts.
 */

export { type Diff, diffRows } from './audit.js';
export { COUNT_TTL_MS } from './counts.js';
export { type ListAnswer, type RawQuery, ResourceEngine } from './engine.js';
export { illegalTransition, staleUpdate, unsupported } from './errors.js';
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
  MissingHandlersError,
  missingActionHandlers,
  type ResourceHooks,
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
