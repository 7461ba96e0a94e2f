/**
 * The U+0000 guard walks parsed JSON only: a body a route takes as a stream (CDN log import,
 * restore) is a live object with cycles, and walking it grew an array until V8 aborted the whole
 * process (found by the CLI's `cdn import` test after the guard landed).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdsNul } from '../src/http/nul-characters.js';

describe('holdsNul', () => {
  it('finds U+0000 in strings and keys of parsed JSON, at any depth', () => {
    expect(holdsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(holdsNul({ 'k\u0000': 1 })).toBe(true);
    expect(holdsNul(JSON.parse('{"a":[1,"b",{"c":null}]}'))).toBe(false);
    expect(holdsNul(Object.assign(Object.create(null), { q: 'a\u0000' }))).toBe(true);
  });

  it('leaves streams and other live objects to their route, cycles included', () => {
    const stream = new PassThrough();
    expect(holdsNul(stream)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = new PassThrough();
    (cyclic.self as unknown as Record<string, unknown>).owner = cyclic;
    expect(holdsNul(cyclic)).toBe(false);
  });
});
