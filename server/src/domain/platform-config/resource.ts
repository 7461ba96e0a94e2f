/**
 * The platformConfig resource is the key → value store of 0001 (`platform_config`), shown as a
 * single row with id 1 so the generic screen and routes edit it. Every save also writes a
 * configVersions row (the full configuration after the save, who saved it), and
 * `configVersions/{id}/restore` writes a version back — as a new save, so history only grows.
 */
import { DEFAULT_PRODUCT_NAME, getResource, type ResourceDef, validateBody } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { invalidInput } from '../../http/envelope.js';
import type {
  ActionContext,
  AnyDb,
  CustomStore,
  EngineExtensions,
  WriteContext,
} from '../../resources/extensions.js';
import { isoOf, modelOf, toDbValues, toWireRow, type WireRow } from '../../resources/storage.js';
import { type ConfigValue, setPlatformConfig } from './store.js';

export const PLATFORM_CONFIG_ID = 1;

const configDef = (): ResourceDef => getResource('platformConfig');
const versionsDef = (): ResourceDef => getResource('configVersions');

/** The configuration as the platformConfig row (the stored value of each field, or its default). */
async function readRow(db: AnyDb): Promise<WireRow> {
  const def = configDef();
  const rows = await (db as Kysely<Database>)
    .selectFrom('platform_config')
    .select(['key', 'value', 'updated_at'])
    .execute();
  const stored = new Map<string, unknown>();
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const row of rows) {
    first = Math.min(first, row.updated_at);
    last = Math.max(last, row.updated_at);
    try {
      stored.set(row.key, JSON.parse(row.value));
    } catch {
      // A hand-edited value that is not JSON reads as unset.
    }
  }
  const out: WireRow = { id: PLATFORM_CONFIG_ID, createdAt: '', updatedAt: '' };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.writeOnly) continue;
    const value = stored.has(name) ? stored.get(name) : (field.default ?? null);
    out[name] = value === undefined ? null : value;
  }
  if (out.productName === null) out.productName = DEFAULT_PRODUCT_NAME;
  // Never saved: the configuration is as old as the installation (its first migration), and
  // that instant is also the version a first save's If-Match names.
  const installed = Number.isFinite(first) ? first : await installedAt(db);
  out.createdAt = isoOf(installed) as string;
  out.updatedAt = isoOf(Math.max(last, installed)) as string;
  return out;
}

/** When the database was set up: the first migration's run (Kysely's own table), else the epoch. */
async function installedAt(db: AnyDb): Promise<number> {
  const { rows } = await sql<{
    at: string | null;
  }>`select min("timestamp") as at from kysely_migration`.execute(db);
  const at = rows[0]?.at ? Date.parse(rows[0].at) : Number.NaN;
  return Number.isFinite(at) ? at : 0;
}

/** The configuration fields of a row, as saved in a version's snapshot. */
function snapshotOf(row: WireRow): Record<string, unknown> {
  const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = row;
  return fields;
}

async function saveVersion(trx: AnyDb, row: WireRow, userId: number | null, now: number, dialect: string) {
  const model = modelOf(versionsDef());
  // Version numbers come from max + 1: on PostgreSQL two concurrent saves take turns here.
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext('wanxiang.configVersions'))`.execute(trx);
  const top = (await trx
    .selectFrom(model.table)
    .select(sql<number | null>`max(version)`.as('v'))
    .executeTakeFirst()) as { v: number | string | null } | undefined;
  const version = Number(top?.v ?? 0) + 1;
  const inserted = await trx
    .insertInto(model.table)
    .values({
      ...toDbValues(model, { version, snapshot: snapshotOf(row), savedBy: userId }),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWireRow(model, inserted);
}

async function save(
  ctx: WriteContext,
  values: Record<string, unknown>,
): Promise<{ row: WireRow; version: WireRow }> {
  const current = await readRow(ctx.trx);
  // Strictly later than the last save, so updatedAt tells every save apart.
  const stamp = Math.max(ctx.now, Date.parse(current.updatedAt) + 1);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    await setPlatformConfig(ctx.trx as Kysely<Database>, key, value as ConfigValue, stamp);
  }
  const row = await readRow(ctx.trx);
  const version = await saveVersion(ctx.trx, row, ctx.user?.id ?? null, stamp, ctx.dialect);
  return { row, version };
}

const store: CustomStore = {
  async list(db) {
    return [await readRow(db)];
  },
  async get(db, id) {
    return id === PLATFORM_CONFIG_ID ? readRow(db) : null;
  },
  async update(ctx, _id, values) {
    return (await save(ctx, values)).row;
  },
};

async function restore(ctx: ActionContext) {
  const snapshot = (ctx.row.snapshot ?? {}) as Record<string, unknown>;
  const def = configDef();
  // The snapshot is checked against today's definition: fields since removed are left out.
  const known = Object.fromEntries(
    Object.entries(snapshot).filter(([k]) => k in def.fields && !def.fields[k]?.readOnly),
  );
  const validated = validateBody(def, known, 'update');
  if (!validated.ok) throw invalidInput(validated.fields, '该版本的配置不符合当前规则，无法恢复');
  const before = await readRow(ctx.trx);
  const { row, version } = await save(ctx, validated.value);
  for (const key of Object.keys(validated.value)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(row[key] ?? null))
      ctx.note(key, before[key], row[key]);
  }
  ctx.touched('platformConfig');
  ctx.touched('configVersions');
  return version;
}

export function register(engine: EngineExtensions): void {
  // No table of its own: the key → value store of 0001 (\`platform_config\`), through \`store\`.
  engine.registerStorage('platformConfig', { table: false });
  engine.registerResourceHooks('platformConfig', { store, touches: ['configVersions'] });
  engine.registerActionHandler('configVersions', 'restore', restore);
}
