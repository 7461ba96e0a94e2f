/**
 * How an API key is stored: its SHA-256, hex. Keys carry 238 random bits (core's
 * api-market/keys.ts), so a fast unsalted hash is safe and lets the gateway find a key by one
 * indexed lookup; the key itself is shown once at creation and never stored.
 */
import { createHash } from 'node:crypto';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
