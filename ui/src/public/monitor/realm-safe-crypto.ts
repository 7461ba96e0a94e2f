/**
 * Tests only: Node's WebCrypto behind jsdom. jsdom's typed arrays come from another realm than
 * Node's, and Node's SubtleCrypto refuses them ("not instance of ArrayBuffer"); a browser has one
 * realm and no such problem. This provider copies every binary argument into a Node Buffer first.
 */
import { webcrypto } from 'node:crypto';

const BINARY = /^\[object (ArrayBuffer|SharedArrayBuffer|DataView|\w+Array)\]$/;

function toNode(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const tag = Object.prototype.toString.call(value);
  if (!BINARY.test(tag)) {
    if (Object.getPrototypeOf(value) === Object.prototype || tag === '[object Object]') {
      // Algorithm parameters (publicExponent, iv, salt …) may hold binary too.
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNode(v)]));
    }
    return value;
  }
  if (ArrayBuffer.isView(value) || tag.endsWith('Array]') || tag === '[object DataView]') {
    const view = value as ArrayBufferView;
    return Buffer.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
  return Buffer.from(value as ArrayBuffer);
}

export function realmSafeCrypto(): Crypto {
  const subtle = webcrypto.subtle;
  const wrapped = new Proxy(subtle, {
    get(target, name) {
      const member = Reflect.get(target, name, target) as unknown;
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => (member as (...a: unknown[]) => unknown).apply(target, args.map(toNode));
    },
  });
  return {
    subtle: wrapped,
    getRandomValues: <T extends ArrayBufferView | null>(array: T) => {
      if (!array) return array;
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      bytes.set(webcrypto.getRandomValues(new Uint8Array(array.byteLength)));
      return array;
    },
    randomUUID: () => webcrypto.randomUUID(),
  } as unknown as Crypto;
}
