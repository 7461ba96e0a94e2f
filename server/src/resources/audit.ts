/**
 * Every admin mutation leaves an `auditLogs` row — who, what (`orders.accept`), which row, the
 * changed fields before and after, from where — written in the transaction of the change, so
 * there is never a change without its entry nor an entry without its change. Write-only values
 * (passwords, secrets) appear only as `******`.
 */
import { findResource, type ResourceDef } from '@wanxiang/core';
import { writeWithNext } from '../db/together.js';
import { appendRowsQuery } from './actions.js';
import type { AnyDb } from './extensions.js';
import { MASK, type WireRow } from './storage.js';

export type Diff = Record<string, unknown>;

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt']);

function redact(def: ResourceDef, field: string, value: unknown): unknown {
  return def.fields[field]?.writeOnly && value !== null && value !== undefined ? MASK : value;
}

function pick(def: ResourceDef, row: WireRow, keys: Iterable<string>): Diff {
  const out: Diff = {};
  for (const key of keys) out[key] = redact(def, key, row[key] ?? null);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface AuditNote {
  field: string;
  before: unknown;
  after: unknown;
}

/** Before/after of the fields that changed (all set fields on create, all fields on delete). */
export function diffRows(
  def: ResourceDef,
  before: WireRow | null,
  after: WireRow | null,
  notes: readonly AuditNote[] = [],
): { before: Diff | null; after: Diff | null } {
  let result: { before: Diff | null; after: Diff | null };
  if (!before && after) {
    const keys = Object.keys(after).filter(
      (k) => !SYSTEM.has(k) && after[k] !== null && after[k] !== undefined,
    );
    result = { before: null, after: pick(def, after, keys) };
  } else if (before && !after) {
    result = {
      before: pick(
        def,
        before,
        Object.keys(before).filter((k) => !SYSTEM.has(k)),
      ),
      after: null,
    };
  } else if (before && after) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => !SYSTEM.has(k) && !same(before[k], after[k]),
    );
    result = { before: pick(def, before, keys), after: pick(def, after, keys) };
  } else {
    result = { before: null, after: null };
  }
  for (const note of notes) {
    // A create has no "before" and a delete no "after": a note only fills the sides that exist.
    if (before) {
      result.before ??= {};
      result.before[note.field] = redact(def, note.field, note.before);
    }
    if (after) {
      result.after ??= {};
      result.after[note.field] = redact(def, note.field, note.after);
    }
  }
  return result;
}

export interface AuditEntry {
  userId: number | null;
  /** `<resource>.<verb>`: create, update, delete or the action's name. */
  action: string;
  resource: string;
  recordId: number | null;
  before: Diff | null;
  after: Diff | null;
  ip: string | null;
  now: number;
}

export async function writeAudit(trx: AnyDb, entry: AuditEntry): Promise<void> {
  const def = findResource('auditLogs');
  if (!def) return;
  // Sent with the transaction's COMMIT on PostgreSQL (db/together.ts).
  await writeWithNext(
    trx,
    appendRowsQuery(
      trx,
      def,
      [
        {
          userId: entry.userId,
          action: entry.action,
          resource: entry.resource,
          recordId: entry.recordId,
          before: entry.before,
          after: entry.after,
          ip: entry.ip,
        },
      ],
      entry.now,
    ),
  );
}
