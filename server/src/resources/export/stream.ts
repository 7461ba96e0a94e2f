/**
 * `GET /api/admin/R/export?format=csv|ndjson&…`: every row matching the list's filters, streamed
 * with constant memory. Rows are read in keyset batches (no OFFSET), one batch per turn of the
 * event loop: a batch is read and formatted synchronously into one chunk, pushed to the response,
 * and the next one is started from `setImmediate` only once the socket wants more — so other
 * requests are served between any two batches, and a slow client holds the export back instead
 * of filling the server's memory.
 *
 * CSV is for people in Excel: UTF-8 with a BOM, a header of Chinese labels, enum labels instead
 * of values, money in yuan with two decimals, times as `YYYY-MM-DD HH:mm` in China time, related
 * rows as id and name, and text that a spreadsheet would run as a formula prefixed with `'`.
 * NDJSON is for programs: one wire row per line, exactly as the list answers it.
 *
 * The folder, from the bottom up (each file imports only files below it):
 * - time-format.ts, stored-text.ts, csv-text.ts, canonical-json.ts, cell-text.ts: a cell's text;
 * - csv-columns.ts: which columns, and a row's cells from its stored values;
 * - source.ts, batches.ts, whole-names.ts, related-names.ts: rows read in batches, names of
 *   related rows;
 * - chunk-pool.ts, chunk-writer.ts, csv-formatter.ts: batches written into reused buffers;
 * - worker-protocol.ts, worker.ts, parallel.ts: a large CSV in two lanes (worker.ts is bundled
 *   alone: it must not import anything above csv-formatter.ts);
 * - producer.ts, csv-producer.ts, ndjson-producer.ts, readable.ts, this file, file-name.ts: the
 *   HTTP answer.
 * How fast each part is, and why it is built so, is in ../README.md ("Export").
 */

import type { Readable } from 'node:stream';
import type { ResourceDef } from '@wanxiang/core';
import type { ResourceEngine } from '../engine.js';
import { ChunkPool } from './chunk-pool.js';
import { csvProducer } from './csv-producer.js';
import { ndjsonProducer } from './ndjson-producer.js';
import type { ExportFormat, Raw } from './producer.js';
import { ExportReadable } from './readable.js';
import { EXPORT_CACHE_KIB, NAMES_CACHE_KIB } from './source.js';

/**
 * The export as a stream. The query is parsed and the first rows read before this resolves, so
 * a bad query fails as a normal 422 answer instead of a truncated file.
 */
export async function exportStream(
  engine: ResourceEngine,
  def: ResourceDef,
  raw: Raw,
  format: ExportFormat,
  /**
   * How many bytes given to the destination it has not written yet, at most — for an HTTP
   * response `res.writableLength` (what its socket still holds, framing included). Used to take
   * chunks' slabs back; where it is unknown, none is taken back (each chunk keeps its own).
   */
  unsent: () => number = () => Number.POSITIVE_INFINITY,
): Promise<Readable> {
  // SQLite: the export reads on connections of its own (rows, and the names a CSV shows), closed
  // with the stream; neither pushes the lists' pages out of their cache or maps the file.
  const reader = engine.reader?.fork(EXPORT_CACHE_KIB) ?? null;
  const lookups = format === 'csv' ? (engine.reader?.fork(NAMES_CACHE_KIB) ?? null) : null;
  const pool = new ChunkPool();
  const closers: (() => void)[] = [];
  const close = () => {
    for (const stop of closers) stop();
    reader?.close();
    lookups?.close();
  };
  try {
    const produce =
      format === 'csv'
        ? csvProducer(engine, reader, lookups, pool, def, raw, closers)
        : ndjsonProducer(engine, reader, pool, def, raw);
    let first = await produce();
    // CSV's first chunk is the header alone: read the first batch too, so a failing query fails here.
    if (format === 'csv' && first !== null) {
      const rows = await produce();
      if (rows === null) return new ExportReadable(async () => null, first, close, pool, unsent);
      first = Buffer.concat([Buffer.from(first), Buffer.from(rows)]);
      if (typeof rows !== 'string') pool.release(rows);
    }
    return new ExportReadable(produce, first, close, pool, unsent);
  } catch (error) {
    close();
    throw error;
  }
}
