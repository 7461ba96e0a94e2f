/**
 * A Buffer about to be kept (a cache's entry), in memory of its own. Node hands out small Buffers
 * (under 4 KB, from `Buffer.from`, `Buffer.concat` or `allocUnsafe`) as slices of a shared 8 KB
 * slab, and a kept slice keeps its whole slab alive however little of it is the entry: the list
 * rows' cache, capped at 8 MB of rows (`LIST_ROW_CACHE_MB`), held several times that in slabs
 * under the load bench (BENCHMARKS.md, twenty-third session). A Buffer that is already the whole
 * of its memory is kept as it is.
 */
export function ownMemory(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer;
  const own = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(own);
  return own;
}
