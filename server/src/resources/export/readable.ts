import { Readable } from 'node:stream';
import type { ChunkPool } from './chunk-pool.js';
import type { Producer } from './producer.js';

/** Pushed chunks remembered for the pool at most; older ones are left to the garbage collector. */
const MAX_UNSENT = 16;

/**
 * Makes one chunk per turn of the event loop, only while the consumer wants more: `_read` is
 * called again by the stream once the socket has taken what was pushed. A chunk pushed goes back
 * to the pool once the destination has written it: of the bytes pushed, those still in this
 * stream and the `unsent()` bytes of the destination are not written yet; every byte before them
 * is.
 */
export class ExportReadable extends Readable {
  private reading = false;
  /** Chunks pushed and maybe not yet written, each with the count of bytes pushed up to its end. */
  private readonly pushed: { chunk: Buffer; end: number }[] = [];
  private pushedBytes = 0;

  constructor(
    private readonly produce: Producer,
    private first: Buffer | string | null,
    private readonly onClose: () => void,
    private readonly pool: ChunkPool,
    private readonly unsent: () => number,
  ) {
    super();
  }

  /** Gives the pool back the slabs of the chunks the destination has written. */
  private releaseSent(): void {
    const written = this.pushedBytes - this.readableLength - this.unsent();
    while (this.pushed.length > 0 && (this.pushed[0] as { end: number }).end <= written)
      this.pool.release((this.pushed.shift() as { chunk: Buffer }).chunk);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.onClose();
    callback(error);
  }

  override _read(): void {
    if (this.reading) return;
    this.reading = true;
    this.releaseSent();
    if (this.first !== null) {
      const first = this.first;
      this.first = null;
      this.deliver(first);
      return;
    }
    setImmediate(() => {
      this.produce().then(
        (chunk) => (chunk === null ? this.push(null) : this.deliver(chunk)),
        (error: unknown) => this.destroy(error as Error),
      );
    });
  }

  private deliver(chunk: Buffer | string): void {
    this.reading = false;
    // An empty chunk (a resource store with no rows) asks for the next one straight away.
    if (chunk.length === 0) {
      this._read();
      return;
    }
    this.pushedBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (typeof chunk !== 'string') {
      this.pushed.push({ chunk, end: this.pushedBytes });
      if (this.pushed.length > MAX_UNSENT) this.pushed.shift();
    }
    if (this.push(chunk)) this._read();
  }
}
