import type { ResourceDef } from '@wanxiang/core';
import type { SqliteReader } from '../../db/sqlite-reader.js';
import type { ResourceEngine } from '../engine.js';
import { displayNames } from '../relations.js';
import { modelOf } from '../storage.js';
import { BatchReader } from './batches.js';
import type { ChunkPool } from './chunk-pool.js';
import { csvColumns, WIRE, wireIds } from './csv-columns.js';
import { CsvFormatter, formatRun } from './csv-formatter.js';
import { csvCell } from './csv-text.js';
import { type ParallelExport, parallelCsvExport } from './parallel.js';
import type { Producer, Raw } from './producer.js';
import { EXPORT_BATCH } from './source.js';

const BOM = '\uFEFF';

/**
 * The CSV of a resource: the header, then one chunk per batch — from a resource store at once,
 * else read in keyset batches, the rest handed to worker threads once the export proves large.
 */
export function csvProducer(
  engine: ResourceEngine,
  reader: SqliteReader | null,
  /** A connection for related names while `reader` streams rows (see CsvFormatter). */
  lookups: SqliteReader | null,
  pool: ChunkPool,
  def: ResourceDef,
  raw: Raw,
  /** What to stop when the export ends or is abandoned (its worker threads). */
  closers: (() => void)[],
): Producer {
  const { headers, cells } = csvColumns(def);
  const header = `${BOM}${headers.map(csvCell).join(',')}\r\n`;
  const store = engine.extensions.hooksOf(def.name).store;
  const model = modelOf(def);
  const query = engine.parseQuery(def, raw);
  let headerSent = false;

  if (store) {
    let sent = false;
    return async () => {
      if (!headerSent) {
        headerSent = true;
        return header;
      }
      if (sent) return null;
      sent = true;
      const rows = await store.list(engine.db);
      const names = new Map<string, Map<number, string | null>>();
      for (const fs of model.relations) {
        const field = fs.field;
        const target =
          field.type === 'relation' || field.type === 'relationList' ? engine.resource(field.resource) : null;
        const ids = new Set<number>();
        for (const row of rows)
          for (const id of wireIds(row[fs.name])) if (typeof id === 'number') ids.add(id);
        names.set(
          fs.name,
          target && ids.size > 0 ? await displayNames(engine.db, target, [...ids]) : new Map(),
        );
      }
      return rows.map((row) => `${cells.map((c) => c.fromWire(row, names)).join(',')}\r\n`).join('');
    };
  }

  // Fields kept outside the table (users.roles) are read from wire rows.
  const batches = new BatchReader(
    engine,
    reader,
    def,
    query,
    cells.some((c) => c.kind === WIRE),
  );
  const formatter = new CsvFormatter(engine, reader, cells, lookups, pool);
  let parallel: ParallelExport | null = null;
  let first = true;
  return async () => {
    if (!headerSent) {
      headerSent = true;
      return header;
    }
    if (parallel) return parallel.next();
    const next = await formatter.chunk(batches);
    if (!next) return null;
    // A first full batch means a large export: the rest goes to worker threads where it can.
    if (first && next.rows === EXPORT_BATCH && batches.after) {
      parallel = parallelCsvExport(engine, reader, pool, def, query, batches.after, async (after, until) =>
        formatRun(formatter, batches.range(after, until)),
      );
      if (parallel) closers.push(parallel.close);
    }
    first = false;
    return next.chunk;
  };
}
