/**
 * How a registry definition is kept in the database, on SQLite and PostgreSQL alike:
 *
 * | field type                                                        | column            |
 * | ----------------------------------------------------------------- | ----------------- |
 * | string, text, markdown, password, image, file, date, enum         | text              |
 * | integer, money (fen), relation (id)                               | bigint            |
 * | number                                                            | double precision  |
 * | boolean                                                           | integer 0/1       |
 * | datetime                                                          | bigint epoch ms   |
 * | json, stringList, enumList, relationList                          | text holding JSON |
 *
 * Every table has `id` (auto-increment), `created_at` and `updated_at` (epoch ms) and, for
 * soft-deleted resources, `deleted_at`. The wire shape (API.md) is camelCase with ISO 8601
 * times; `toWireRow` and `toDbValues` are the one place that converts between the two.
 */
import {
  columnName,
  type FieldDef,
  JSON_TYPES,
  maskText,
  type ResourceDef,
  SECRET_MASK,
  tableName,
} from '@wanxiang/core';
import { isoText, MAX_DATE_MS } from './export/time-format.js';

export type StorageType = 'text' | 'bigint' | 'integer' | 'double';

/** What a stored secret is shown as (only when one is set): what core's fieldText shows for it. */
export const MASK = SECRET_MASK;

/** How one registry field is kept. */
export interface FieldStorage {
  name: string;
  field: FieldDef;
  /** The column, or null for a field a domain area keeps elsewhere (users.roles in user_roles). */
  column: string | null;
  type: StorageType;
  /** Kept only as a one-way hash (users.password): never shown, not even masked. */
  hashed: boolean;
}

/**
 * How a domain area keeps a resource that is not simply a table of its fields' columns, handed
 * over by the area itself (`EngineExtensions.registerStorage` in its `register`): users keep the
 * password as its hash in `password_hash` and the roles in `user_roles` (domain/users); the
 * platform configuration is a key → value store with no table of its own (domain/platform-config).
 */
export interface ResourceStorage {
  /** Fields not kept in the column of their own name: another column, or null (the area's hooks keep it). */
  fields?: Readonly<Record<string, { column: string | null; hashed?: boolean }>>;
  /** false: no table at all — the area's `store` hook keeps the resource. */
  table?: false;
}

/**
 * The storage areas handed over, by resource name. Process-wide like the models built from it
 * (a model is kept per definition): a resource's storage must be known before its first model,
 * and registering the same storage again (another app in the same process) changes nothing.
 */
const storageByResource = new Map<string, ResourceStorage>();
const modelled = new Set<string>();

export function setResourceStorage(resource: string, storage: ResourceStorage): void {
  const known = storageByResource.get(resource);
  if (known) {
    if (JSON.stringify(known) !== JSON.stringify(storage))
      throw new Error(`the storage of ${resource} is registered twice, differently`);
    return;
  }
  if (modelled.has(resource))
    throw new Error(`the storage of ${resource} is registered after the engine used its default storage`);
  storageByResource.set(resource, storage);
}

export function storageType(field: FieldDef): StorageType {
  switch (field.type) {
    case 'integer':
    case 'money':
    case 'relation':
    case 'datetime':
      return 'bigint';
    case 'number':
      return 'double';
    case 'boolean':
      return 'integer';
    default:
      return 'text';
  }
}

/** Everything the engine needs to know about one resource's storage, computed once. */
export interface ResourceModel {
  def: ResourceDef;
  table: string;
  /** False for resources a domain area stores itself (platformConfig). */
  hasTable: boolean;
  softDelete: boolean;
  fields: FieldStorage[];
  byName: ReadonlyMap<string, FieldStorage>;
  /** Fields with a column (not virtual). */
  stored: FieldStorage[];
  /** Relation and relation-list fields shown by the related row's display field. */
  relations: FieldStorage[];
  /** Columns of the keyword search. */
  searchColumns: string[];
}

export const SYSTEM_COLUMNS: Record<string, string> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const models = new WeakMap<ResourceDef, ResourceModel>();

export function modelOf(def: ResourceDef): ResourceModel {
  let model = models.get(def);
  if (model) return model;
  const storage = storageByResource.get(def.name);
  modelled.add(def.name);
  const overrides = storage?.fields ?? {};
  const fields: FieldStorage[] = Object.entries(def.fields).map(([name, field]) => {
    const override = overrides[name];
    return {
      name,
      field,
      column: override ? override.column : columnName(name),
      type: storageType(field),
      hashed: override?.hashed ?? false,
    };
  });
  const stored = fields.filter((f) => f.column !== null);
  model = {
    def,
    table: tableName(def),
    hasTable: storage?.table !== false,
    softDelete: !!def.softDelete,
    fields,
    byName: new Map(fields.map((f) => [f.name, f])),
    stored,
    relations: stored.filter(
      (f) => (f.field.type === 'relation' || f.field.type === 'relationList') && !f.field.writeOnly,
    ),
    searchColumns: stored
      .filter((f) => f.field.searchable && !f.field.writeOnly)
      .map((f) => f.column as string),
  };
  models.set(def, model);
  return model;
}

/** The column of a field or system field, or null for a virtual field / unknown name. */
export function columnOf(model: ResourceModel, name: string): string | null {
  return SYSTEM_COLUMNS[name] ?? model.byName.get(name)?.column ?? null;
}

/** The field of a system-field column has this shape for conversions. */
const SYSTEM_FIELD_TYPES: Record<string, FieldDef> = {
  id: { type: 'integer', label: 'ID' },
  createdAt: { type: 'datetime', label: '创建时间' },
  updatedAt: { type: 'datetime', label: '更新时间' },
};

export function fieldDefOf(model: ResourceModel, name: string): FieldDef | undefined {
  return SYSTEM_FIELD_TYPES[name] ?? model.byName.get(name)?.field;
}

// ---- values ---------------------------------------------------------------------------------

/** Epoch ms from a wire datetime (ISO text) or a number already in ms. */
export function epochMs(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(String(value));
  return Number.isNaN(ms) ? null : ms;
}

/** ISO text of epoch ms; null for a value that is no instant (not a number, or beyond a `Date`). */
export function isoOf(ms: unknown): string | null {
  if (ms === null || ms === undefined) return null;
  const n = Number(ms);
  return Number.isFinite(n) && Math.abs(n) <= MAX_DATE_MS ? isoText(n) : null;
}

/** A wire value of a field as its column value. */
export function toDbValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null) return null;
  switch (field.type) {
    case 'datetime':
      return epochMs(value);
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
    case 'integer':
    case 'money':
    case 'relation':
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    default:
      if (JSON_TYPES.has(field.type)) return JSON.stringify(value);
      return typeof value === 'string' ? value : String(value);
  }
}

/** A column value as the field's wire value (a secret unmasked: callers that show it mask it). */
export function fromDbValue(field: FieldDef, value: unknown): unknown {
  return WIRE_CONVERTERS[wireKind(field, false)](value);
}

export type DbRow = Record<string, unknown>;
export type WireRow = { id: number; createdAt: string; updatedAt: string } & Record<string, unknown>;

/**
 * A stored row as the wire row of API.md. Write-only fields are left out, except stored secrets
 * (e.g. thirdServices.secret), which read `******` when set so a form can say "set". Such secrets
 * are kept as given because the server must use them (call the SMS API); encrypting them at rest
 * (a key outside the database) is future work.
 * Virtual fields (users.roles) are attached by the resource's hooks.
 */
export function toWireRow(model: ResourceModel, row: DbRow): WireRow {
  const plan = wirePlanOf(model);
  const out: WireRow = { ...plan.template };
  out.id = Number(row.id);
  for (let i = 0; i < plan.names.length; i++) {
    out[plan.names[i] as string] = (plan.converts[i] as Convert)(row[plan.columns[i] as string]);
  }
  out.createdAt = WIRE_CONVERTERS.stamp(row.created_at);
  out.updatedAt = WIRE_CONVERTERS.stamp(row.updated_at);
  return out;
}

type Convert = (value: unknown) => unknown;

function parseJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  try {
    return JSON.parse(String(value));
  } catch {
    return null;
  }
}

/**
 * How a stored value becomes its wire value, by kind. The kinds are named so that the SQL that
 * writes wire rows as JSON inside SQLite (sqlite-json.ts) follows the same cases, and hands any
 * value it does not handle itself back to these very functions.
 */
export const WIRE_CONVERTERS = {
  iso: (v) => (v === null || v === undefined ? null : isoOf(v)),
  /** `createdAt` and `updatedAt`: always text. */
  stamp: (v) => isoOf(v) ?? '',
  boolean: (v) => (v === null || v === undefined ? null : v === 1 || v === true || v === '1' || v === 1n),
  number: (v) => (v === null || v === undefined ? null : Number(v)),
  json: parseJson,
  text: (v) => (v === undefined ? null : v),
  masked: (v) => (v === null || v === undefined ? null : MASK),
} satisfies Record<string, Convert>;

export type WireKind = keyof typeof WIRE_CONVERTERS;

/** The conversion of a field's stored value; a write-only field reads masked unless told not to. */
export function wireKind(field: FieldDef, mask = true): WireKind {
  if (field.writeOnly && mask) return 'masked';
  switch (field.type) {
    case 'datetime':
      return 'iso';
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'money':
    case 'relation':
    case 'number':
      return 'number';
    default:
      return JSON_TYPES.has(field.type) ? 'json' : 'text';
  }
}

/**
 * How a model's rows become wire rows, worked out once: the wire fields in order, their columns
 * and conversions, and a template object with every key of a wire row.
 *
 * A row is a copy of the template with its values assigned. Built key by key instead, an object
 * of ~40 keys falls into V8's slow dictionary mode: creating it and `JSON.stringify`ing it cost
 * 2–4× as much (a list answer of 20 orders: 61 µs → 25 µs to build, 58 µs → 37 µs to serialise).
 * The template comes from `JSON.parse` because that yields a fast object with all keys.
 */
interface WirePlan {
  names: string[];
  columns: string[];
  converts: Convert[];
  template: WireRow;
}

const wirePlans = new WeakMap<ResourceModel, WirePlan>();

function wirePlanOf(model: ResourceModel): WirePlan {
  let plan = wirePlans.get(model);
  if (plan) return plan;
  const names: string[] = [];
  const columns: string[] = [];
  const converts: Convert[] = [];
  const keys: Record<string, null> = { id: null, createdAt: null, updatedAt: null };
  for (const fs of model.stored) {
    // A hashed secret (users.password) is never shown, not even masked.
    if (fs.field.writeOnly && fs.hashed) continue;
    names.push(fs.name);
    columns.push(fs.column as string);
    converts.push(WIRE_CONVERTERS[wireKind(fs.field)]);
    keys[fs.name] = null;
  }
  const template = JSON.parse(JSON.stringify(keys)) as WireRow;
  plan = { names, columns, converts, template };
  wirePlans.set(model, plan);
  return plan;
}

/**
 * `toWireRow` for rows read as arrays (better-sqlite3's raw mode) whose columns are `columns`:
 * the same wire rows, with the column positions worked out once per query, not per value.
 */
export function arrayRowReader(
  model: ResourceModel,
  columns: readonly string[],
): (values: readonly unknown[]) => WireRow {
  const plan = wirePlanOf(model);
  const { names, converts, template } = plan;
  const positions = plan.columns.map((column) => columns.indexOf(column));
  const idAt = columns.indexOf('id');
  const createdAt = columns.indexOf('created_at');
  const updatedAt = columns.indexOf('updated_at');
  const count = names.length;
  return (values) => {
    const out: WireRow = { ...template };
    out.id = Number(values[idAt]);
    for (let i = 0; i < count; i++) {
      const p = positions[i] as number;
      out[names[i] as string] = (converts[i] as Convert)(p < 0 ? undefined : values[p]);
    }
    out.createdAt = WIRE_CONVERTERS.stamp(createdAt < 0 ? null : values[createdAt]);
    out.updatedAt = WIRE_CONVERTERS.stamp(updatedAt < 0 ? null : values[updatedAt]);
    return out;
  };
}

/** Wire values (camelCase) of stored fields as column values; virtual and unknown keys are skipped. */
export function toDbValues(model: ResourceModel, values: Record<string, unknown>): DbRow {
  const out: DbRow = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const fs = model.byName.get(name);
    if (!fs || fs.column === null) continue;
    out[fs.column] = toDbValue(fs.field, value);
  }
  return out;
}

/**
 * Values a new row gets when none is given: the definition's defaults, also for read-only fields
 * the server maintains (a store starts `paused`), and 0 for read-only counters and amounts
 * (salesCount, balanceFen) that no default names.
 */
export function creationDefaults(model: ResourceModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const fs of model.fields) {
    const { field } = fs;
    if (field.default !== undefined) out[fs.name] = field.default;
    else if (field.readOnly && (field.type === 'integer' || field.type === 'money')) out[fs.name] = 0;
  }
  return out;
}

/**
 * A write-only field `x` with a read-only companion `xMasked` (merchantApplications.idNumber and
 * idNumberMasked): the server fills the companion whenever `x` is written, so screens can show
 * which number is on file without ever reading it back.
 */
export function fillMaskedCompanions(model: ResourceModel, values: Record<string, unknown>): void {
  for (const fs of model.fields) {
    if (!fs.field.writeOnly || fs.hashed || !(fs.name in values)) continue;
    const companion = model.byName.get(`${fs.name}Masked`);
    if (!companion?.field.readOnly || companion.column === null) continue;
    const value = values[fs.name];
    values[companion.name] = typeof value === 'string' && value !== '' ? maskText(value) : null;
  }
}
