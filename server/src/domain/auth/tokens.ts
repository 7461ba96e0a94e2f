/**
 * Opaque bearer tokens: 256 random bits, handed out once and stored only as a SHA-256 hash,
 * so a leaked database does not leak usable sessions. (A slow hash is not needed: the token
 * has full entropy, unlike a password.)
 */
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
