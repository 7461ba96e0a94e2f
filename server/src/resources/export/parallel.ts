/**
 * A large CSV export on SQLite, read and formatted in two lanes at once — a worker thread
 * (worker.ts) and the main thread — whose chunks go to the socket in order.
 *
 * Why: reading a large table from SQLite (mostly making the JavaScript values of every column)
 * and formatting it is CPU work, about half each; one thread missed the export's bar (QUALITY.md)
 * and two lanes halve it (../README.md, "Export", has the figures).
 *
 * How: the rows are cut into runs of EXPORT_BATCH by their keyset positions in the list's order.
 * Finding where the next run ends costs one index walk of EXPORT_BATCH entries (on the export's
 * own read connection, the table itself untouched); the runs go in turn to the worker and to the
 * main thread itself, each bounded on both sides, so a row written meanwhile never appears
 * twice. At most two runs per worker are in flight, so
 * memory stays bounded and a slow client holds the workers back as it holds the single-thread
 * export back.
 *
 * Used only where it helps and is the same: SQLite, an order whose keys are all non-null in one
 * direction (the default newest first), a resource with no hooks that change its rows, after a
 * first full batch (small exports never start a thread), and at most MAX_PARALLEL_EXPORTS at once.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ListQuery, ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import type { SqliteReader } from '../../db/sqlite-reader.js';
import { settleHeap } from '../../v8-heap.js';
import type { ResourceEngine } from '../engine.js';
import { afterCursor, applyFilters, applyOrder, boundedOrder, type OrderKey, orderKeys } from '../query.js';
import { modelOf } from '../storage.js';
import type { ChunkPool } from './chunk-pool.js';
import { EXPORT_BATCH } from './source.js';
import type { ExportAnswer, ExportTask, ExportWorkerData } from './worker-protocol.js';

/**
 * Worker threads per export; the main thread formats every other run itself. Two lanes use the
 * two cores a small server has, and each worker costs memory of its own (an isolate, its code,
 * its caches) where the main thread's heap is there anyway.
 */
export const EXPORT_WORKERS = 1;
/** Exports running on workers at once; more run in the main thread as before. */
export const MAX_PARALLEL_EXPORTS = 2;
/** Runs handed to each worker ahead of the one being sent. */
const AHEAD = 2;

// From the TypeScript source (tests), the worker runs through tsx; built, this file is part of
// dist/start.js and the worker is dist/export-worker.js beside it (tsup.config.ts).
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './worker.ts' : './export-worker.js', import.meta.url);

/** A worker script that loads a TypeScript module through tsx (Node 20's `--import` misses workers). */
const viaTsx = (url: string) =>
  `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}))`;

let running = 0;
/** How many exports took this path since the process started (tests, monitoring). */
export const parallelExports = { started: 0 };

export interface ParallelExport {
  /** The next chunk in order; null at the end. */
  next(): Promise<Buffer | null>;
  close(): void;
}

/**
 * Workers for the rows after `after` (the last row the main thread exported), or null when this
 * export is not one for them.
 */
export function parallelCsvExport(
  engine: ResourceEngine,
  /**
   * The export's own read connection: the run boundaries walk the order's index there, so the
   * walk neither maps the index into the lists' memory map (RSS) nor evicts their cache.
   */
  reader: SqliteReader | null,
  /** The export's slabs: a task lends the worker one to write its run into; its chunk comes back in it. */
  pool: ChunkPool,
  def: ResourceDef,
  query: ListQuery,
  after: unknown[],
  /** Formats a run in the main thread (the export's own reader and formatter). */
  local: (after: unknown[], until: unknown[] | null) => Promise<Buffer>,
): ParallelExport | null {
  const hooks = engine.extensions.hooksOf(def.name);
  const model = modelOf(def);
  const keys = orderKeys(model, query);
  if (!reader || engine.dialect !== 'sqlite' || hooks.store || hooks.loadVirtual || !boundedOrder(keys))
    return null;
  if (running >= MAX_PARALLEL_EXPORTS || !existsSync(fileURLToPath(WORKER_URL))) return null;

  const boundary = runBoundary(engine, reader, def, query, keys);

  running++;
  parallelExports.started++;
  const workerData: ExportWorkerData = { file: reader.file, resource: def.name, query };
  const workers = Array.from({ length: EXPORT_WORKERS }, () => startWorker(workerData));

  const waiting = new Map<number, { resolve: (chunk: Buffer) => void; reject: (error: Error) => void }>();
  const pending = new Map<number, Promise<Buffer>>();
  let failure: Error | null = null;
  let closed = false;
  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  for (const worker of workers) {
    worker.on('message', (answer: ExportAnswer) => {
      const wait = waiting.get(answer.index);
      waiting.delete(answer.index);
      if ('error' in answer) wait?.reject(new Error(answer.error));
      else {
        pool.adopt(answer.buffer);
        wait?.resolve(Buffer.from(answer.buffer, answer.offset, answer.length));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!closed) fail(new Error(`export worker stopped (${code})`));
    });
  }

  const online = Promise.all(workers.map(onlineOf));

  let from: unknown[] | null = after;
  let nextIndex = 0;
  let delivered = 0;
  const lanes = workers.length + 1;
  // The main thread's runs one after the other, each in a turn of its own (never in the loop
  // that schedules them), so other requests are served between them.
  let localQueue: Promise<unknown> = Promise.resolve();
  const schedule = () => {
    const start = from as unknown[];
    const until = boundary(start);
    from = until;
    const index = nextIndex++;
    const lane = index % lanes;
    let chunk: Promise<Buffer>;
    if (lane === workers.length) {
      chunk = localQueue.then(
        () =>
          new Promise<Buffer>((resolve, reject) =>
            setImmediate(() => {
              if (failure) reject(failure);
              else local(start, until).then(resolve, reject);
            }),
          ),
      );
      localQueue = chunk.catch(() => undefined);
    } else {
      const slab = pool.lend();
      const task: ExportTask = { index, after: start, until, slab };
      chunk = new Promise<Buffer>((resolve, reject) => {
        if (failure) return reject(failure);
        waiting.set(index, { resolve, reject });
        (workers[lane] as Worker).postMessage(task, slab ? [slab] : []);
      });
    }
    // Awaited in turn by `next`; until then a failure must not count as unhandled.
    chunk.catch(() => undefined);
    pending.set(index, chunk);
  };

  return {
    async next() {
      await online;
      while (from !== null && pending.size < lanes * AHEAD) schedule();
      const chunk = pending.get(delivered);
      if (!chunk) return null;
      pending.delete(delivered);
      delivered++;
      return chunk;
    },
    close() {
      if (closed) return;
      closed = true;
      running--;
      for (const worker of workers) void worker.terminate();
    },
  };
}

/**
 * Where the run after `from` ends: the position of its EXPORT_BATCH-th row, or null (the rest).
 * Only the key columns are read: an index walk, the table itself is never touched.
 */
function runBoundary(
  engine: ResourceEngine,
  reader: SqliteReader,
  def: ResourceDef,
  query: ListQuery,
  keys: OrderKey[],
): (from: unknown[]) => unknown[] | null {
  const model = modelOf(def);
  const keyColumns = keys.map((k) => sql.ref(k.column).as(k.column));
  return (from) => {
    const compiled = applyOrder(
      applyFilters(engine.db.selectFrom(model.table).select(keyColumns), model, query, 'sqlite').where(
        afterCursor(keys, from, 'sqlite'),
      ),
      keys,
    )
      .limit(1)
      .offset(EXPORT_BATCH - 1)
      .compile();
    const { rows } = reader.arrays(compiled.sql, compiled.parameters);
    return (rows[0] as unknown[] | undefined) ?? null;
  };
}

function startWorker(workerData: ExportWorkerData): Worker {
  return new Worker(FROM_SOURCE ? viaTsx(WORKER_URL.href) : WORKER_URL, {
    eval: FROM_SOURCE,
    workerData,
    // A small young generation: the rows die young, and a big one would only raise the RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 160 },
  });
}

/**
 * Resolves once the worker is online (or has stopped: a worker that never comes online fails the
 * export through its 'exit' handler). Starting a worker sets V8's flags back to their defaults
 * (v8-heap.ts) until it is online: the main thread formats nothing before then, or its scavenges
 * in between double its young generation to its maximum for the life of the process (a higher RSS
 * after the first export, and at every later export's peak: ../README.md, "An export's memory").
 */
function onlineOf(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    worker.once('online', () => {
      settleHeap();
      resolve();
    });
    worker.once('exit', () => resolve());
  });
}
