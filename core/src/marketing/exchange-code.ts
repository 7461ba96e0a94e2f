/**
 * 兑换码: what one looks like, how one is made, and how what a user typed is read.
 *
 * - Alphabet: 31 characters, digits and capitals without the look-alikes 0/O, 1/I/L — a code is
 *   read off a poster or a receipt and typed on a phone.
 * - Length: 12 characters, shown as three groups of four (`K7QM-2XWP-9RTD`). 31¹² ≈ 7.9 × 10¹⁷
 *   (59 bits): with ten million codes out, one guess in about 80 000 000 000 hits one.
 * - Made from the platform's cryptographic random source (Web Crypto `getRandomValues`, in Node
 *   and browsers alike), with rejection sampling so every character is equally likely.
 * - Input is read forgivingly: case, spaces (full-width too), dashes and full-width letters are
 *   ignored, so `k7qm 2xwp－9rtd` is the code above.
 */

export const EXCHANGE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const EXCHANGE_CODE_LENGTH = 12;
const GROUP = 4;

const VALID = new RegExp(`^[${EXCHANGE_CODE_ALPHABET}]{${EXCHANGE_CODE_LENGTH}}$`);

/** Fills `bytes` with random values (tests pass a deterministic one). */
export type RandomFill = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array;

const cryptoFill: RandomFill = (bytes) => globalThis.crypto.getRandomValues(bytes);

/** The largest multiple of the alphabet's size below 256: bytes from it up are thrown away. */
const LIMIT = 256 - (256 % EXCHANGE_CODE_ALPHABET.length);

/** A new code, normalised (no dashes). */
export function generateExchangeCode(fill: RandomFill = cryptoFill): string {
  let code = '';
  const bytes = new Uint8Array(EXCHANGE_CODE_LENGTH * 2);
  while (code.length < EXCHANGE_CODE_LENGTH) {
    fill(bytes);
    for (const byte of bytes) {
      if (byte >= LIMIT) continue;
      code += EXCHANGE_CODE_ALPHABET[byte % EXCHANGE_CODE_ALPHABET.length];
      if (code.length === EXCHANGE_CODE_LENGTH) break;
    }
  }
  return code;
}

/** `count` distinct new codes. */
export function generateExchangeCodes(count: number, fill: RandomFill = cryptoFill): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(generateExchangeCode(fill));
  return [...codes];
}

/**
 * What a user typed, as the stored code would be: NFKC (full-width → half-width), without
 * whitespace and dashes of any kind, upper case.
 */
export function normalizeExchangeCode(input: string): string {
  return input
    .normalize('NFKC')
    .replace(/[\s\p{Pd}_]/gu, '')
    .toUpperCase();
}

/** Whether a normalised code has the shape of a code (it may still not exist). */
export function isExchangeCode(code: string): boolean {
  return VALID.test(code);
}

export type ExchangeCodeInput = { ok: true; code: string } | { ok: false; message: string };

/** What a user typed, normalised and checked: the code to look up, or why it cannot be one. */
export function readExchangeCode(input: unknown): ExchangeCodeInput {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, message: '请输入兑换码' };
  const code = normalizeExchangeCode(input);
  if (!isExchangeCode(code)) {
    return { ok: false, message: `兑换码为 ${EXCHANGE_CODE_LENGTH} 位字母和数字，请检查后重新输入` };
  }
  return { ok: true, code };
}

/** `K7QM2XWP9RTD` → `K7QM-2XWP-9RTD` (for print and display). */
export function formatExchangeCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += GROUP) groups.push(code.slice(i, i + GROUP));
  return groups.join('-');
}
