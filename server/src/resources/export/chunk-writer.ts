import type { ChunkPool } from './chunk-pool.js';

/** Lines written into one slab of the export's pool per batch, a larger slab when a batch needs more. */
export class ChunkWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(private readonly pool: ChunkPool) {
    this.buffer = pool.take();
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const bigger = this.pool.take(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.pool.release(this.buffer);
    this.buffer = bigger;
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.room(text.length * 3);
    this.length += this.buffer.write(text, this.length);
  }

  crlf(): void {
    this.room(2);
    this.buffer[this.length++] = 0x0d;
    this.buffer[this.length++] = 0x0a;
  }

  /**
   * `csvCell(text)` of a text that needs quoting, written without making the doubled string:
   * the text is encoded, then its quotes are doubled in place from the end (0x22 never occurs
   * inside a multi-byte UTF-8 sequence). A JSON cell is mostly quotes; `replace` cost more than
   * everything else of an order's row together, and made garbage of every row.
   */
  writeQuoted(text: string): void {
    this.room(text.length * 6 + 2);
    const buffer = this.buffer;
    buffer[this.length++] = 0x22;
    const start = this.length;
    const end = start + buffer.write(text, start);
    let quotes = 0;
    for (let i = start; i < end; i++) if (buffer[i] === 0x22) quotes++;
    const grown = end + quotes;
    let from = end - 1;
    let to = grown - 1;
    while (quotes > 0) {
      const byte = buffer[from--] as number;
      buffer[to--] = byte;
      if (byte === 0x22) {
        buffer[to--] = 0x22;
        quotes--;
      }
    }
    buffer[grown] = 0x22;
    this.length = grown + 1;
  }

  /** The chunk so far (a view of its slab, which stays the chunk's); the writer takes a new slab. */
  take(): Buffer {
    const chunk = this.buffer.subarray(0, this.length);
    this.buffer = this.pool.take();
    this.length = 0;
    return chunk;
  }
}
