/**
 * One worker thread of a parallel CSV export (parallel.ts): it opens its own read
 * connection to the SQLite file, and for every task it is sent — the rows between two keyset
 * positions — reads them, formats them exactly as the export in the main thread does
 * (`CsvFormatter`) and sends the chunk back, its memory transferred rather than copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findResource } from '@wanxiang/core';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { SqliteReader } from '../../db/sqlite-reader.js';
import { EngineExtensions } from '../extensions.js';
import { BatchReader } from './batches.js';
import { ChunkPool } from './chunk-pool.js';
import { csvColumns } from './csv-columns.js';
import { CsvFormatter, formatRun } from './csv-formatter.js';
import { EXPORT_CACHE_KIB, type ExportSource, NAMES_CACHE_KIB } from './source.js';
import type { ExportAnswer, ExportTask, ExportWorkerData } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('export/worker.ts runs as a worker thread');
const { file, resource, query } = workerData as ExportWorkerData;
const def = findResource(resource);
if (!def) throw new Error(`export worker: unknown resource ${resource}`);

// Kysely only compiles SQL here (the reader runs it): no connection behind it.
// biome-ignore lint/suspicious/noExplicitAny: the tables are the registry's, known at run time only
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
// Resources with hooks (fields kept elsewhere, custom stores) are never exported in parallel.
const source: ExportSource = {
  db,
  dialect: 'sqlite',
  resource: findResource,
  extensions: new EngineExtensions(),
};
const reader = new SqliteReader(file, { cacheKiB: EXPORT_CACHE_KIB });
// Related names are read on a second connection while the first streams the rows.
const lookups = new SqliteReader(file, { cacheKiB: NAMES_CACHE_KIB });
const batches = new BatchReader(source, reader, def, query, false);
// Slabs lent by the main thread; the chunk of a run goes back in the slab it was written into.
const pool = new ChunkPool();
const formatter = new CsvFormatter(source, reader, csvColumns(def).cells, lookups, pool);

async function run(task: ExportTask): Promise<ExportAnswer> {
  if (task.slab) {
    pool.adopt(task.slab);
    pool.release(Buffer.from(task.slab));
  }
  const chunk = await formatRun(formatter, batches.range(task.after, task.until));
  // Large chunks own their memory and move to the main thread; a small one may sit in Node's
  // shared buffer pool, which cannot move: it is copied.
  if (chunk.buffer.byteLength > Buffer.poolSize)
    return {
      index: task.index,
      buffer: chunk.buffer as ArrayBuffer,
      offset: chunk.byteOffset,
      length: chunk.length,
    };
  const copy = new Uint8Array(chunk.length);
  copy.set(chunk);
  return { index: task.index, buffer: copy.buffer, offset: 0, length: copy.length };
}

// Tasks come one at a time per worker (the main thread waits for each answer), in order.
let queue = Promise.resolve();
port.on('message', (task: ExportTask) => {
  queue = queue.then(async () => {
    try {
      const answer = await run(task);
      port.postMessage(answer, 'buffer' in answer ? [answer.buffer] : []);
    } catch (error) {
      port.postMessage({ index: task.index, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
port.once('close', () => {
  reader.close();
  lookups.close();
});
