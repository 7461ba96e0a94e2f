/**
 * The API market's key format (DOMAIN.md "API market"): `wx_` and 40 letters and digits drawn
 * from a cryptographic source — 238 bits, so a key cannot be guessed and needs no salt: the
 * server stores only its SHA-256 (server/src/domain/api-market/key-hash.ts) and finds a key by
 * that hash. The first 11 characters (`wx_` + 8) are the key's public prefix: shown in lists
 * and logs so a person can tell keys apart without the secret.
 */

export const API_KEY_PREFIX = 'wx_';
const SECRET_LENGTH = 40;
const PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${SECRET_LENGTH}}$`);

/**
 * A new key. `randomBytes` fills its argument with cryptographically random bytes
 * (`crypto.getRandomValues` in a browser or Node); rejection sampling keeps every character
 * equally likely (62 does not divide 256).
 */
export function newApiKey(
  randomBytes: (into: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b),
): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(new Uint8Array(64))) {
      if (byte >= 248) continue; // 248 = 4 × 62: the bytes above would favour the first letters
      secret += ALPHABET[byte % 62];
      if (secret.length === SECRET_LENGTH) break;
    }
  }
  return API_KEY_PREFIX + secret;
}

/** Whether a string has a key's shape (checked before any database lookup). */
export function isApiKeyShaped(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The public part of a key, shown in lists: `wx_` and its first 8 characters. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

/**
 * Active keys one user may hold (revoked ones do not count): enough for an app per environment,
 * few enough that a leaked session cannot mint keys without end.
 */
export const MAX_API_KEYS_PER_USER = 20;
