/** The messages between a parallel export (parallel.ts) and its worker thread (worker.ts). */
import type { ListQuery } from '@wanxiang/core';

export interface ExportWorkerData {
  file: string;
  resource: string;
  query: ListQuery;
}

export interface ExportTask {
  index: number;
  after: unknown[] | null;
  until: unknown[] | null;
  /** A slab of the export's pool to write into (transferred), when the main thread had one free. */
  slab?: ArrayBuffer;
}

export type ExportAnswer =
  | { index: number; buffer: ArrayBuffer; offset: number; length: number }
  | { index: number; error: string };
