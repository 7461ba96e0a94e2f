/** 兑换码: the alphabet and length, crypto generation, and forgiving reading of what users type. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXCHANGE_CODE_ALPHABET,
  EXCHANGE_CODE_LENGTH,
  formatExchangeCode,
  generateExchangeCode,
  generateExchangeCodes,
  isExchangeCode,
  normalizeExchangeCode,
  readExchangeCode,
} from '../../src/index';

const code = fc
  .array(fc.constantFrom(...EXCHANGE_CODE_ALPHABET), {
    minLength: EXCHANGE_CODE_LENGTH,
    maxLength: EXCHANGE_CODE_LENGTH,
  })
  .map((chars) => chars.join(''));

describe('exchange codes', () => {
  it('have at least 12 characters from an alphabet without look-alikes', () => {
    expect(EXCHANGE_CODE_LENGTH).toBeGreaterThanOrEqual(12);
    for (const lookAlike of '01ILO') expect(EXCHANGE_CODE_ALPHABET).not.toContain(lookAlike);
    expect(new Set(EXCHANGE_CODE_ALPHABET).size).toBe(EXCHANGE_CODE_ALPHABET.length);
  });

  it('are generated from the crypto source, valid and distinct', () => {
    const codes = generateExchangeCodes(5000);
    expect(new Set(codes).size).toBe(5000);
    for (const c of codes) expect(isExchangeCode(c)).toBe(true);
  });

  it('take every character equally often: bytes past the last whole alphabet are thrown away', () => {
    // 248 = 8 × 31: bytes 0..247 map to each character exactly 8 times; 248..255 are refused.
    const calls: number[][] = [];
    const fill = (bytes: Uint8Array) => {
      const call = calls.length;
      for (let i = 0; i < bytes.length; i++) bytes[i] = call === 0 ? 248 + (i % 8) : 31 * (i % 8) + i;
      calls.push([...bytes]);
      return bytes;
    };
    const generated = generateExchangeCode(fill);
    expect(calls.length).toBe(2);
    const expected = (calls[1] as number[])
      .slice(0, EXCHANGE_CODE_LENGTH)
      .map((b) => EXCHANGE_CODE_ALPHABET[b % EXCHANGE_CODE_ALPHABET.length])
      .join('');
    expect(generated).toBe(expected);
    const hits = new Map<string, number>();
    for (let b = 0; b < 248; b++) {
      const ch = EXCHANGE_CODE_ALPHABET[b % EXCHANGE_CODE_ALPHABET.length] as string;
      hits.set(ch, (hits.get(ch) ?? 0) + 1);
    }
    expect(new Set(hits.values())).toEqual(new Set([8]));
  });

  it('read what users type: case, spaces, dashes and full-width characters do not matter (property)', () => {
    fc.assert(
      fc.property(code, fc.constantFrom(' ', '-', '－', '　', '—', ''), fc.boolean(), (c, sep, lower) => {
        const typed = formatExchangeCode(c).replaceAll('-', sep);
        const shown = lower ? typed.toLowerCase() : typed;
        expect(normalizeExchangeCode(` ${shown} `)).toBe(c);
        expect(readExchangeCode(shown)).toEqual({ ok: true, code: c });
      }),
    );
    // Full-width letters and digits (a Chinese input method's) read as their ASCII ones.
    expect(normalizeExchangeCode('ＡＢＣＤ－２３４５－６７８９')).toBe('ABCD23456789');
  });

  it('refuse what cannot be a code with a Chinese message', () => {
    expect(readExchangeCode('')).toEqual({ ok: false, message: '请输入兑换码' });
    expect(readExchangeCode(42)).toEqual({ ok: false, message: '请输入兑换码' });
    for (const bad of ['ABCD-2345-678', 'ABCD-2345-67890', 'ABCD-2345-678O', 'ABCD-2345-6781']) {
      expect(readExchangeCode(bad)).toEqual({
        ok: false,
        message: '兑换码为 12 位字母和数字，请检查后重新输入',
      });
    }
  });
});
