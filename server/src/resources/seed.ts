/**
 * Bulk inserts through the engine's conversions, for seeders (demo data, the million-order
 * bench): rows in the wire shape (camelCase, ISO times or epoch ms, JSON values as values, read-
 * only fields allowed), the same defaults and hooks as a create (users' passwords hashed — once
 * per distinct password — and roles written), many rows per statement, all in one transaction.
 * No validation and no audit rows: a seeder is not an administrator's change.
 */
import type { ResourceDef } from '@wanxiang/core';
import { CompiledQuery, sql } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { dialectOf } from '../db/dialect.js';
import { bumpVersion } from './counts.js';
import type { AnyDb, EngineExtensions } from './extensions.js';
import {
  creationDefaults,
  type DbRow,
  epochMs,
  fillMaskedCompanions,
  modelOf,
  toDbValues,
} from './storage.js';

export interface InsertRowsOptions {
  /** Time of rows without createdAt (default: now). */
  now?: number;
  /** Answer the new ids (default true); a million-row seed can skip them. */
  returnIds?: boolean;
  /** The areas' hooks (domain/areas.ts `engineExtensions()`): users' passwords hashed, roles written. */
  extensions: EngineExtensions;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const placeholderCache = new Map<string, string>();

/** `(?, ?), (?, ?)` or `($1, $2), ($3, $4)` for `rows` rows of `columns` values. */
function placeholders(dialect: DialectName, rows: number, columns: number): string {
  const key = `${dialect}:${rows}:${columns}`;
  let text = placeholderCache.get(key);
  if (!text) {
    if (dialect === 'sqlite') {
      const tuple = `(${new Array(columns).fill('?').join(', ')})`;
      text = new Array(rows).fill(tuple).join(', ');
    } else {
      const tuples: string[] = [];
      for (let r = 0; r < rows; r++) {
        const marks: string[] = [];
        for (let c = 1; c <= columns; c++) marks.push(`$${r * columns + c}`);
        tuples.push(`(${marks.join(', ')})`);
      }
      text = tuples.join(', ');
    }
    if (placeholderCache.size > 50) placeholderCache.clear();
    placeholderCache.set(key, text);
  }
  return text;
}

/** Both databases accept at least this many bound values per statement (SQLite 32 766, pg 65 535). */
const MAX_PARAMS = 30_000;

export async function insertRows(
  db: AnyDb,
  def: ResourceDef,
  rows: readonly Record<string, unknown>[],
  options: InsertRowsOptions,
): Promise<number[]> {
  const model = modelOf(def);
  if (!model.hasTable) throw new Error(`${def.name} is not stored in a table of its own`);
  const dialect = dialectOf(db);
  const hooks = options.extensions.hooksOf(def.name);
  const now = options.now ?? Date.now();
  const defaults = creationDefaults(model);
  const memo = new Map<string, unknown>();

  // Wire values → column values, with the defaults of a create.
  const prepared: { values: Record<string, unknown>; row: DbRow }[] = [];
  for (const input of rows) {
    const { id, createdAt, updatedAt, ...fields } = input;
    const values = { ...defaults, ...fields };
    fillMaskedCompanions(model, values);
    await hooks.prepare?.(values, { memo });
    const created = epochMs(createdAt) ?? now;
    const row: DbRow = {
      ...toDbValues(model, values),
      created_at: created,
      updated_at: epochMs(updatedAt) ?? created,
    };
    if (id !== undefined && id !== null) row.id = Number(id);
    prepared.push({ values, row });
  }
  if (prepared.length === 0) return [];

  const columns = [...new Set(prepared.flatMap((p) => Object.keys(p.row)))];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const head = `insert into ${quote(model.table)} (${columns.map(quote).join(', ')}) values `;
  const wantIds = options.returnIds !== false || !!hooks.afterWrite;
  const ids: number[] = [];

  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < prepared.length; start += perStatement) {
      const chunk = prepared.slice(start, start + perStatement);
      const params: unknown[] = new Array(chunk.length * columns.length);
      let n = 0;
      for (const { row } of chunk) for (const column of columns) params[n++] = row[column] ?? null;
      const text =
        head + placeholders(dialect, chunk.length, columns.length) + (wantIds ? ' returning id' : '');
      const result = await trx.executeQuery<{ id: number }>(CompiledQuery.raw(text, params));
      if (wantIds) for (const r of result.rows) ids.push(Number(r.id));
    }
    if (hooks.afterWrite) {
      for (const [i, p] of prepared.entries()) {
        await hooks.afterWrite(
          // Seeding announces nothing and has no work for after the commit.
          { db, trx, dialect, now, def, user: null, ip: null, publish: () => {}, afterCommit: () => {} },
          ids[i] as number,
          p.values,
          null,
        );
      }
    }
    // Explicit ids do not move PostgreSQL's identity sequence: move it past them.
    if (dialect === 'postgres' && columns.includes('id')) {
      await sql`select setval(pg_get_serial_sequence(${model.table}, 'id'), (select max(id) from ${sql.table(model.table)}))`.execute(
        trx,
      );
    }
  });
  bumpVersion(db, def.name);
  return options.returnIds === false ? [] : ids;
}
