/**
 * The engine's refusals, in one place so that the engine, the audited row write and the areas'
 * handlers raise the same answers without importing each other.
 */

import { ApiError, conflict } from '../http/envelope.js';
import { unsupportedMessage } from './query.js';
import type { ResourceModel } from './storage.js';

/** 403: the resource does not offer this method (read-only, no create, no delete). */
export const unsupported = () => new ApiError({ status: 403, errorCode: 403, message: unsupportedMessage });
/** 409: `If-Match` / `updatedAt` names a version that is no longer the row's. */
export const staleUpdate = () => conflict('数据已被他人修改，请刷新后重试');
/** 409: the row is not (or no longer) in a state the action applies to. */
export const illegalTransition = () => conflict('当前状态不能执行此操作');

/*
 * A duplicate value is a 409 naming the field, on both databases: SQLite says
 * `UNIQUE constraint failed: stores.name`, PostgreSQL `Key (name)=(…) already exists.`
 */

interface DriverError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
}

/** The columns of a unique violation, or null when the error is something else. */
export function uniqueViolationColumns(error: unknown): string[] | null {
  const e = error as DriverError | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const match = /constraint failed: (.*)$/.exec(String(e.message));
    return (match?.[1] ?? '').split(',').map((c) => c.trim().split('.').at(-1) ?? '');
  }
  if (e.code === '23505') {
    const match = /Key \((.*?)\)=/.exec(String(e.detail ?? ''));
    return (match?.[1] ?? '').split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  }
  return null;
}

export function uniqueConflict(model: ResourceModel, error: unknown): ApiError | null {
  const columns = uniqueViolationColumns(error);
  if (!columns) return null;
  const fs = model.stored.find((f) => f.column !== null && columns.includes(f.column));
  if (!fs) return conflict(`${model.def.title}已存在相同的记录`);
  const message = `${fs.field.label}已存在`;
  return conflict(message, { [fs.name]: message });
}
