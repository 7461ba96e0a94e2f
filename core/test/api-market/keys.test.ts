import { describe, expect, it } from 'vitest';
import { apiKeyPrefix, isApiKeyShaped, newApiKey } from '../../src/index';

describe('API keys', () => {
  it('makes keys of the documented shape, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newApiKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(isApiKeyShaped(key)).toBe(true);
      expect(apiKeyPrefix(key)).toBe(key.slice(0, 11));
      expect(apiKeyPrefix(key).startsWith('wx_')).toBe(true);
    }
  });

  it('skips the bytes that would bias the alphabet', () => {
    // Every byte ≥ 248 is skipped; 0 and 61 map to the first and last letters.
    const bytes = [255, 250, 248, 0, 61, 62];
    const key = newApiKey((into) => {
      into.set(Array.from({ length: into.length }, (_, i) => bytes[i % bytes.length] ?? 0));
      return into;
    });
    expect(key.slice(3, 7)).toBe('A9AA');
  });

  it('tells a key from other strings', () => {
    expect(isApiKeyShaped('wx_short')).toBe(false);
    expect(isApiKeyShaped(`wx_${'a'.repeat(39)}!`)).toBe(false);
    expect(isApiKeyShaped(`xx_${'a'.repeat(40)}`)).toBe(false);
  });
});
