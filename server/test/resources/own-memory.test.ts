/** own-memory.ts: what a cache keeps holds its own bytes, nothing of a shared slab. */
import { describe, expect, it } from 'vitest';
import { ownMemory } from '../../src/resources/own-memory.js';

describe('ownMemory', () => {
  it('copies a slice of a shared slab into memory of its own, the same bytes', () => {
    const slab = Buffer.alloc(8192);
    slab.write('{"success":true}', 100);
    const slice = slab.subarray(100, 116);
    const own = ownMemory(slice);
    expect(own.toString()).toBe('{"success":true}');
    expect(own.buffer).not.toBe(slab.buffer);
    expect(own.buffer.byteLength).toBe(16);
    // Later writes to the slab (its next tenants) do not reach the kept copy.
    slab.fill(0);
    expect(own.toString()).toBe('{"success":true}');
  });

  it('keeps a Buffer that is already the whole of its memory as it is', () => {
    const whole = Buffer.allocUnsafeSlow(64).fill(1);
    expect(ownMemory(whole)).toBe(whole);
  });
});
