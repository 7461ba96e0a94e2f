/**
 * Counts the records of an export as the bytes pass through, without holding them: NDJSON has
 * one per line; CSV one per line outside quoted cells (a quoted address may hold a line break).
 */
import { Transform, type TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;
const QUOTE = 0x22;

export class RowCounter extends Transform {
  bytes = 0;
  private lines = 0;
  private inQuotes = false;
  private lastByte = -1;

  constructor(
    private readonly format: 'csv' | 'ndjson',
    private readonly onChunk: () => void = () => {},
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.count(chunk);
    this.bytes += chunk.length;
    this.onChunk();
    done(null, chunk);
  }

  /** Data rows so far: a CSV's first record is its header; a last line without "\n" counts. */
  get rows(): number {
    const records = this.lines + (this.lastByte !== -1 && this.lastByte !== NEWLINE ? 1 : 0);
    return this.format === 'csv' ? Math.max(0, records - 1) : records;
  }

  private count(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.lastByte = chunk[chunk.length - 1] as number;
    if (this.format === 'ndjson' || (!this.inQuotes && chunk.indexOf(QUOTE) === -1)) {
      // The common case, at memchr speed.
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) this.lines++;
      return;
    }
    // Indexed access, not for…of: the iterator costs several times as much per byte, and a CSV with
    // JSON cells (an order's items) has quotes in every line, so every chunk comes this way.
    let inQuotes = this.inQuotes;
    let lines = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      // An escaped quote ("") toggles twice: the state comes out right.
      if (byte === QUOTE) inQuotes = !inQuotes;
      else if (byte === NEWLINE && !inQuotes) lines++;
    }
    this.inQuotes = inQuotes;
    this.lines += lines;
  }
}
