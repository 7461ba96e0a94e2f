/**
 * Secrets at rest (a deployment's private key): AES-256-GCM with a key outside the database.
 * The key is `WANXIANG_SECRET_KEY` (64 hex digits) when set; otherwise 32 random bytes generated
 * once into DATA_DIR/secret.key (mode 0600) and read from there on every start — a database copied
 * without that file holds nothing readable. Stored form: `v1:<iv>:<tag>:<ciphertext>` (base64),
 * a fresh 12-byte IV per value, so equal keys do not look equal.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { syncFolder } from '../../files/durable.js';

const PREFIX = 'v1:';

export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** The key from the setting, or DATA_DIR/secret.key (made when missing). */
export async function loadSecretKey(setting: string | null | undefined, dataDir: string): Promise<Buffer> {
  if (setting) {
    if (!/^[0-9a-f]{64}$/i.test(setting))
      throw new SecretKeyError('WANXIANG_SECRET_KEY must be 64 hex digits (32 bytes): openssl rand -hex 32');
    return Buffer.from(setting, 'hex');
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new SecretKeyError(`${file} must hold 64 hex digits`);
    return Buffer.from(text, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Written whole under a name of its own, on disk, then linked to its place: the link fails when
  // another process starting at the same moment got there first (its key is then the one, read
  // back), and nobody ever reads a key half written — created and then written in place, a second
  // process read it empty in between and refused to start (seen in the two-process monitor test),
  // and a crash in between would have left an empty key for good.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const fd = openSync(draft, 'wx', 0o600);
    try {
      writeSync(fd, `${key.toString('hex')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return loadSecretKey(null, dataDir);
  } finally {
    rmSync(draft, { force: true });
  }
  // The new key's name survives a power cut once secrets are sealed with it.
  await syncFolder(dataDir);
  return key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${body.toString('base64')}`;
}

/** The plain text of a sealed value; throws SecretKeyError when the key is not the one it was sealed with. */
export function open(key: Buffer, stored: string): string {
  const [iv, tag, body] = stored.slice(PREFIX.length).split(':');
  if (!iv || !tag || body === undefined) throw new SecretKeyError('sealed value is malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretKeyError(
      'sealed value does not open with this key (WANXIANG_SECRET_KEY or secret.key changed?)',
    );
  }
}
