/**
 * What reading and formatting an export needs of the engine, and how much it takes at a time.
 * The main thread's export passes the engine; the export worker (worker.ts) makes its own.
 */
import type { ResourceDef } from '@wanxiang/core';
import type { DialectName } from '../../db/connect.js';
import type { AnyDb, EngineExtensions } from '../extensions.js';

/** Rows per batch: a few milliseconds of reading and formatting, the longest other requests wait. */
export const EXPORT_BATCH = 1000;
/**
 * Page caches of an export's connections: the rows' (each table page is read once, so only the
 * index's upper levels need keeping) and the related names' (the related tables' pages, read
 * again and again).
 */
export const EXPORT_CACHE_KIB = 512;
export const NAMES_CACHE_KIB = 256;

export interface ExportSource {
  db: AnyDb;
  dialect: DialectName;
  resource(name: string): ResourceDef | undefined;
  extensions: EngineExtensions;
}
