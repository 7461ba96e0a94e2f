/**
 * How domain areas extend the generic engine, by resource name, on an `EngineExtensions` the
 * server makes at start (domain/areas.ts: every area's `register(engine)`, called from one list):
 *
 * - `registerActionHandler(resource, action, handler)` gives a `handler` action of the registry
 *   its effect. The server refuses to start while any handler action has none.
 * - `registerResourceHooks(resource, hooks)` covers fields kept elsewhere (users.roles), values
 *   that must be transformed before they are stored (a password hashed), refusals (deleting
 *   oneself), and resources that are not a table of their own (platformConfig).
 * - `registerStorage(resource, storage)` says where such fields and resources are kept.
 * - `registerCreateHandler(resource, handler)` creates rows from a body of the area's own.
 */
import type { ActionDef, ResourceDef } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { type ResourceStorage, setResourceStorage, type WireRow } from './storage.js';

// biome-ignore lint/suspicious/noExplicitAny: the registry's tables are not in the typed schema
export type AnyDb = Kysely<any>;

/**
 * The signed-in user a write is done for, as far as the engine needs one (the audit entry's
 * `userId`, a handler's "not yourself" checks): the auth area's user is one.
 */
export interface ActingUser {
  id: number;
}

/** Who does what, where and when. */
export interface Actor {
  user: ActingUser | null;
  ip: string | null;
}

export interface EngineContext extends Actor {
  /** The database outside any transaction. */
  db: AnyDb;
  dialect: DialectName;
  now: number;
  def: ResourceDef;
  /** Pushes to `/ws` subscribers; call it from `afterCommit` so nothing uncommitted is announced. */
  publish(topic: string, data: unknown): void;
}

/** A write in progress: `trx` is the transaction the audit row is written in. */
export interface WriteContext extends EngineContext {
  trx: AnyDb;
  /** Runs `fn` once the transaction has committed (not awaited by the request; errors logged). */
  afterCommit(fn: () => unknown): void;
}

export interface ActionContext extends WriteContext {
  action: ActionDef;
  id: number;
  /** The row before the action (wire shape). */
  row: WireRow;
  /** The action's validated input. */
  input: Record<string, unknown>;
  /** What `prepare` returned (e.g. a password hash computed outside the transaction). */
  prepared: unknown;
  /** Adds a change the row does not show (a new password) to the audit entry. */
  note(field: string, before: unknown, after: unknown): void;
  /** Another resource the action wrote: its cached list totals are dropped. */
  touched(resource: string): void;
}

export interface ActionHandlerSpec {
  /** Runs before the transaction opens (slow work such as hashing must not hold it). */
  prepare?(ctx: EngineContext & { id: number; input: Record<string, unknown> }): Promise<unknown>;
  /**
   * Does the work in the transaction. May answer the row to return; by default the engine
   * reads the row again. Throw an ApiError (e.g. 409) to refuse: the transaction rolls back.
   */
  run(ctx: ActionContext): Promise<WireRow | undefined>;
  /**
   * The refusal when the row is not in a state the action applies to (its declared `when`), in
   * the words of the rule that says so (the order machine's 订单待支付，不能接单); default
   * 409 当前状态不能执行此操作.
   */
  refusal?(row: WireRow): Error;
  /**
   * Runs after the commit, with what `run` answered (or the row read again): work that must not
   * hold the transaction open, such as talking to a device over the network. Answers what the
   * action answers. It must not throw for an outcome the caller should see (a printer that does
   * not answer): the commit has happened, so it says the outcome in the row it answers.
   */
  afterCommit?(
    ctx: EngineContext & { id: number; input: Record<string, unknown>; prepared: unknown },
    answer: WireRow,
  ): Promise<WireRow>;
  /** The answer's message (default `<label>成功`), e.g. a failed print's reason. */
  message?(answer: WireRow): string | undefined;
  /** Properties `afterCommit` adds to the row, as JSON Schema (the response schema drops any other). */
  answerProperties?: Record<string, object>;
}

export type ActionHandler = ActionHandlerSpec | ActionHandlerSpec['run'];

/** A collection action in progress (`scope: 'collection'`): no row, only the input. */
export interface CollectionActionContext extends WriteContext {
  action: ActionDef;
  /** The action's validated input. */
  input: Record<string, unknown>;
  /** Adds a change to the audit entry (which records the input already). */
  note(field: string, before: unknown, after: unknown): void;
  /** Another resource the action wrote: its cached list totals are dropped. */
  touched(resource: string): void;
}

/**
 * Does a collection action's work in its transaction and answers what the caller is told (a
 * summary: `{batch, count}`). Throw an ApiError to refuse: the transaction rolls back.
 */
export type CollectionActionHandler = (ctx: CollectionActionContext) => Promise<unknown>;

/**
 * `POST /api/admin/<resource>` for a resource whose rows an area creates from a body of its own
 * (a counter order: cart lines in, priced by the server). The engine runs it in its audited
 * write; `run` answers the created row. The definition keeps `noCreate` (no generic form).
 */
export interface CreateHandler {
  /** The body it takes, as JSON Schema, for the OpenAPI document (core's zod → JSON Schema). */
  bodySchema?: object;
  /** What the OpenAPI document says of it. */
  description?: string;
  /**
   * Before the transaction: what `run` and `answer` share that the audit entry must not hold (a
   * new API key's secret, whose hash `run` stores).
   */
  prepare?(body: unknown): Promise<unknown> | unknown;
  run(
    ctx: WriteContext & { body: unknown; prepared?: unknown; touched(resource: string): void },
  ): Promise<WireRow>;
  /** After the commit: what the caller is answered instead of the row (the row plus the key shown once). */
  answer?(row: WireRow, prepared: unknown): WireRow;
  /** Properties `answer` adds to the row, as JSON Schema (the response schema drops any other). */
  answerProperties?: Record<string, object>;
}

/** A resource kept outside a table of its own (platformConfig). */
export interface CustomStore {
  list(db: AnyDb): Promise<WireRow[]>;
  get(db: AnyDb, id: number): Promise<WireRow | null>;
  /** Applies a validated partial update; answers the row after it. */
  update(ctx: WriteContext, id: number, values: Record<string, unknown>): Promise<WireRow>;
}

/**
 * What `afterWrite` and `afterCreate` answer when they left the written row itself as it was
 * (they wrote elsewhere, or nothing): the engine answers the row as written instead of reading
 * it again.
 */
export const ROW_KEPT = 'row kept';

export interface ResourceHooks {
  /** Before the transaction: turns validated values into what is stored (hashes a password). */
  prepare?(values: Record<string, unknown>, ctx: { memo: Map<string, unknown> }): Promise<void>;
  /**
   * In the transaction before a create's insert (through the API; a seeder's rows are history):
   * columns the new row takes from what it holds, set on `values` — a new post's moderation
   * status from its text — so the row is written once, as it will stand, instead of inserted and
   * then changed. The row's id is not known yet (`afterCreate` has it).
   */
  beforeCreate?(ctx: WriteContext, values: Record<string, unknown>): Promise<void>;
  /**
   * In the transaction after an insert or update: fields kept elsewhere, or columns that follow
   * from what changed (`before` is the row before an update, null on create). `values` as
   * written. The row is read again after it, so what it changes shows in the answer and audit,
   * unless it answers `ROW_KEPT`.
   */
  afterWrite?(
    ctx: WriteContext,
    id: number,
    values: Record<string, unknown>,
    before: WireRow | null,
  ): Promise<void | typeof ROW_KEPT>;
  /**
   * In the transaction after a create through the API (after `afterWrite`): what a new row sets
   * off elsewhere (a new account's welcome coupons, a new post's points). Not run by
   * `insertRows`: a seeder's rows are history, not events. The row is read again after it,
   * unless it answers `ROW_KEPT`. `values` as written, with what `beforeCreate` set.
   */
  afterCreate?(
    ctx: WriteContext,
    id: number,
    values: Record<string, unknown>,
  ): Promise<void | typeof ROW_KEPT>;
  /** Adds the fields kept elsewhere to wire rows read from the table. */
  loadVirtual?(db: AnyDb, rows: WireRow[]): Promise<void>;
  /**
   * Before a delete, in its transaction (what it counts cannot change before the row goes);
   * throw an ApiError (e.g. `conflict('…')`) to refuse: nothing is deleted and nothing audited.
   */
  beforeDelete?(ctx: WriteContext, id: number): Promise<void> | void;
  /** In the transaction after a delete (soft or hard). */
  afterDelete?(ctx: WriteContext, id: number): Promise<void>;
  store?: CustomStore;
  /** Other resources this resource's writes also change (their cached list totals are dropped). */
  touches?: readonly string[];
}

export class EngineExtensions {
  private readonly handlers = new Map<string, ActionHandlerSpec>();
  private readonly hooks = new Map<string, ResourceHooks>();
  private readonly collectionHandlers = new Map<string, CollectionActionHandler>();

  private readonly creators = new Map<string, CreateHandler>();

  registerCreateHandler(resource: string, handler: CreateHandler): void {
    if (this.creators.has(resource)) throw new Error(`create handler for ${resource} is registered twice`);
    this.creators.set(resource, handler);
  }

  creator(resource: string): CreateHandler | undefined {
    return this.creators.get(resource);
  }

  registerActionHandler(resource: string, action: string, handler: ActionHandler): void {
    const key = `${resource}.${action}`;
    if (this.handlers.has(key)) throw new Error(`action handler ${key} is registered twice`);
    this.handlers.set(key, typeof handler === 'function' ? { run: handler } : handler);
  }

  /** The handler of a collection action (`scope: 'collection'`) of the registry. */
  registerCollectionHandler(resource: string, action: string, handler: CollectionActionHandler): void {
    const key = `${resource}.${action}`;
    if (this.collectionHandlers.has(key)) throw new Error(`collection handler ${key} is registered twice`);
    this.collectionHandlers.set(key, handler);
  }

  registerResourceHooks(resource: string, hooks: ResourceHooks): void {
    if (this.hooks.has(resource)) throw new Error(`resource hooks for ${resource} are registered twice`);
    this.hooks.set(resource, hooks);
  }

  /** Where an area keeps a resource that is not a plain table (see `ResourceStorage`). */
  registerStorage(resource: string, storage: ResourceStorage): void {
    setResourceStorage(resource, storage);
  }

  handler(resource: string, action: string): ActionHandlerSpec | undefined {
    return this.handlers.get(`${resource}.${action}`);
  }

  collectionHandler(resource: string, action: string): CollectionActionHandler | undefined {
    return this.collectionHandlers.get(`${resource}.${action}`);
  }

  hooksOf(resource: string): ResourceHooks {
    return this.hooks.get(resource) ?? {};
  }
}

/** `resource.action` of every handler action without a registered handler. */
export function missingActionHandlers(
  resources: readonly ResourceDef[],
  registry: EngineExtensions,
): string[] {
  return resources.flatMap((def) =>
    (def.actions ?? [])
      .filter((a) =>
        a.scope === 'collection'
          ? !registry.collectionHandler(def.name, a.name)
          : a.effect.kind === 'handler' && !registry.handler(def.name, a.name),
      )
      .map((a) => `${def.name}.${a.name}`),
  );
}

export class MissingHandlersError extends Error {
  override name = 'MissingHandlersError';
  constructor(readonly missing: string[]) {
    super(
      `the registry declares handler actions without a handler: ${missing.join(', ')} ` +
        '(register them in the register() of their area, server/src/domain/<area>/)',
    );
  }
}

export function assertActionHandlers(resources: readonly ResourceDef[], registry: EngineExtensions): void {
  const missing = missingActionHandlers(resources, registry);
  if (missing.length > 0) throw new MissingHandlersError(missing);
}
