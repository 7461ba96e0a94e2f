import type { SqliteReader } from '../../db/sqlite-reader.js';
import type { Batch, BatchReader } from './batches.js';
import type { ChunkPool } from './chunk-pool.js';
import { ChunkWriter } from './chunk-writer.js';
import { type CsvCell, csvRow, JSON_TEXT } from './csv-columns.js';
import { needsQuotes } from './csv-text.js';
import { ExportNames } from './related-names.js';
import type { ExportSource } from './source.js';

/** A chunk of CSV and the number of rows in it. */
export interface CsvChunk {
  chunk: Buffer;
  rows: number;
}

/**
 * Turns batches into CSV chunks: one chunk per batch, the related names looked up and kept for
 * the whole export. The `cells` are its own (`csvColumns` makes new ones each time). Given
 * `lookups` (a read connection other than `reader`), rows that can be streamed are formatted as
 * they are read (`chunk`), each related name read when a row first needs it.
 */
export class CsvFormatter {
  private readonly names: ExportNames;
  private readonly writer: ChunkWriter;
  private readonly row: string[];
  /** Positions of the JSON cells, written in pieces around the rest of the row (see `writeRow`). */
  private readonly jsonAt: number[];
  private readonly json: string[];
  private resolvedFor: readonly string[] | null = null;

  constructor(
    source: ExportSource,
    reader: SqliteReader | null,
    private readonly cells: readonly CsvCell[],
    private readonly lookups: SqliteReader | null,
    pool: ChunkPool,
  ) {
    this.names = new ExportNames(source, reader, cells, lookups);
    this.writer = new ChunkWriter(pool);
    this.row = new Array(cells.length);
    this.jsonAt = cells.flatMap((cell, i) => (cell.kind === JSON_TEXT ? [i] : []));
    this.json = new Array(this.jsonAt.length);
  }

  /** The next batch of `batches` as one chunk, or null at the end. */
  async chunk(batches: BatchReader): Promise<CsvChunk | null> {
    if (this.lookups && batches.streams) {
      const rows = batches.each(this.writeValues);
      return rows === 0 ? null : { chunk: this.writer.take(), rows };
    }
    const batch = await batches.next();
    return batch ? { chunk: await this.format(batch), rows: batch.values.length } : null;
  }

  /** One streamed row, written as soon as it is read (its names filled as needed). */
  private readonly writeValues = (values: unknown[], columns: readonly string[]): void => {
    this.resolve(columns);
    csvRow(this.row, this.cells, values, undefined, this.names.wire);
    this.writeRow();
    this.writer.crlf();
  };

  /** Where each cell's column is among the rows' columns. */
  private resolve(columns: readonly string[]): void {
    if (this.resolvedFor === columns) return;
    this.resolvedFor = columns;
    for (const cell of this.cells) cell.at = cell.column === null ? -1 : columns.indexOf(cell.column);
  }

  async format(batch: Batch): Promise<Buffer> {
    this.resolve(batch.columns);
    await this.names.load(batch);
    for (let r = 0; r < batch.values.length; r++) {
      csvRow(this.row, this.cells, batch.values[r] as unknown[], batch.wire?.[r], this.names.wire);
      this.writeRow();
      this.writer.crlf();
    }
    return this.writer.take();
  }

  /**
   * A row is one join of its cells, written in pieces around its JSON cells (left empty in the
   * join), which `writeQuoted` writes with their quotes doubled.
   */
  private writeRow(): void {
    const { row, jsonAt, json, writer } = this;
    if (jsonAt.length === 0) {
      writer.write(row.join(','));
      return;
    }
    for (let k = 0; k < jsonAt.length; k++) {
      json[k] = row[jsonAt[k] as number] as string;
      row[jsonAt[k] as number] = '';
    }
    const line = row.join(',');
    let from = 0;
    let offset = 0;
    let cell = 0;
    for (let k = 0; k < jsonAt.length; k++) {
      const at = jsonAt[k] as number;
      // Where cell `at` starts in the line: the cells before it and a comma after each.
      for (; cell < at; cell++) offset += (row[cell] as string).length + 1;
      if (offset > from) writer.write(line.slice(from, offset));
      const text = json[k] as string;
      if (needsQuotes(text)) writer.writeQuoted(text);
      else writer.write(text);
      from = offset;
    }
    if (from < line.length) writer.write(line.slice(from));
  }
}

/** Every row `batches` has left, as one chunk: a run of a parallel export (parallel.ts). */
export async function formatRun(formatter: CsvFormatter, batches: BatchReader): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let next = await formatter.chunk(batches); next; next = await formatter.chunk(batches))
    parts.push(next.chunk);
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}
