import type { ResourceDef } from '@wanxiang/core';
import type { SqliteReader } from '../../db/sqlite-reader.js';
import type { ResourceEngine } from '../engine.js';
import type { WireRow } from '../storage.js';
import { BatchReader } from './batches.js';
import type { ChunkPool } from './chunk-pool.js';
import { ChunkWriter } from './chunk-writer.js';
import type { Producer, Raw } from './producer.js';

/** NDJSON for programs: one wire row per line, exactly as the list answers it. */
export function ndjsonProducer(
  engine: ResourceEngine,
  reader: SqliteReader | null,
  pool: ChunkPool,
  def: ResourceDef,
  raw: Raw,
): Producer {
  const store = engine.extensions.hooksOf(def.name).store;
  const query = engine.parseQuery(def, raw);
  if (store) {
    let sent = false;
    return async () => {
      if (sent) return null;
      sent = true;
      const rows = await store.list(engine.db);
      return rows.length > 0 ? `${rows.map((row) => JSON.stringify(row)).join('\n')}\n` : '';
    };
  }
  const batches = new BatchReader(engine, reader, def, query, true);
  const writer = new ChunkWriter(pool);
  return async () => {
    const batch = await batches.next();
    if (!batch) return null;
    for (const row of batch.wire as WireRow[]) writer.write(`${JSON.stringify(row)}\n`);
    return writer.take();
  };
}
