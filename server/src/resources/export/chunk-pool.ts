/**
 * The buffers an export's chunks are written into, used again and again instead of a new buffer
 * per chunk.
 *
 * Why: a large export passes hundreds of MB through the server, chunk by chunk. A new buffer per
 * chunk lives outside V8's heap and is freed only when the garbage collector gets to the small
 * object that holds it, so spent chunks piled up between two collections, and malloc kept the
 * pages they had touched (../README.md, "An export's memory", has the figures). With a pool an export holds a few slabs — the ones being written and the
 * ones the socket has not sent yet — and nothing else.
 *
 * A slab goes back to the pool only once the response has sent it: `ExportReadable` hands back
 * the chunks whose bytes its destination has written (see `unsent` there). Only
 * slabs the pool made or adopted ever go back, so a buffer of Node's shared pool (a small
 * `Buffer.concat`) is never written into again.
 */

/** A slab: room for a batch of an export's rows (an order's batch fits with room to spare). */
export const SLAB_BYTES = 1 << 20;

/** Slabs made since the process started (tests: an export reuses a few instead of one per chunk). */
export const exportSlabs = { made: 0 };

export class ChunkPool {
  private readonly free: ArrayBuffer[] = [];
  /** Every slab this pool made or was given: only these are taken back. */
  private readonly own = new WeakSet<ArrayBufferLike>();

  /** `keep`: free slabs kept at most; more are left to the garbage collector. */
  constructor(private readonly keep = 4) {}

  /** A slab of at least `bytes` (the newest free one that is large enough, else a new one). */
  take(bytes = SLAB_BYTES): Buffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const slab = this.free[i] as ArrayBuffer;
      if (slab.byteLength >= bytes) {
        this.free.splice(i, 1);
        return Buffer.from(slab);
      }
    }
    const slab = Buffer.allocUnsafeSlow(Math.max(bytes, SLAB_BYTES));
    exportSlabs.made++;
    this.own.add(slab.buffer);
    return slab;
  }

  /** A free slab's memory to hand to a worker thread (transferred), or undefined. */
  lend(): ArrayBuffer | undefined {
    return this.free.pop();
  }

  /** Makes a slab that came from elsewhere (a worker's chunk, transferred) one of this pool's. */
  adopt(slab: ArrayBuffer): void {
    this.own.add(slab);
  }

  /** The chunk's slab is free again (nothing reads the chunk any more). */
  release(chunk: Uint8Array): void {
    const slab = chunk.buffer;
    if (!this.own.has(slab) || this.free.length >= this.keep) return;
    if (this.free.includes(slab as ArrayBuffer)) return;
    this.free.push(slab as ArrayBuffer);
  }
}
