/**
 * Password hashing: argon2id with the OWASP minimum parameters (19 MiB, 2 passes, 1 lane).
 * Hashing runs on libuv's thread pool, so a sign-in does not block the event loop.
 */
import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// `Algorithm` is a const enum in the package's types, which isolatedModules cannot inline.
const ARGON2ID = 2 as Algorithm;

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a wrong password, not a server fault.
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/** Computes the dummy hash ahead of time (at start), so even the first unknown user costs one verify. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummyHash;
}

/**
 * Spends the same time as checking a real password, for usernames that do not exist, so the
 * answer time does not tell an attacker which usernames are real.
 */
export async function verifyDummy(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}

/** A strong random password for the first `admin` when none is configured (≈120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
