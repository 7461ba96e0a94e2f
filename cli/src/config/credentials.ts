/**
 * The credentials file: `{apiUrl, token, username, expire}` as JSON, mode 0600 in a 0700
 * directory, since the token is as good as the password until it expires. One server at a
 * time: signing in elsewhere replaces it.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenStore } from '@wanxiang/core';

export const CREDENTIALS_FILE = 'credentials.json';

export interface Credentials {
  /** The server the token belongs to; also the default API URL of later commands. */
  apiUrl: string;
  token?: string;
  username?: string;
  /** Epoch milliseconds, as the server answered at sign-in. */
  expire?: number;
}

export class CredentialsFile {
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, CREDENTIALS_FILE);
  }

  /** null when there is no file; a damaged file counts as none (signing in again rewrites it). */
  read(): Credentials | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return parseCredentials(JSON.parse(text));
    } catch {
      return null;
    }
  }

  write(credentials: Credentials): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Written beside the file and renamed over it: a reader never sees half a file, and the
    // new file is created 0600 even when an older one had looser permissions.
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
      // The mode given at creation is narrowed by the umask only; chmod makes it exact.
      chmodSync(temp, 0o600);
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}

function parseCredentials(value: unknown): Credentials | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.apiUrl !== 'string' || v.apiUrl === '') return null;
  const credentials: Credentials = { apiUrl: v.apiUrl };
  if (typeof v.token === 'string' && v.token !== '') credentials.token = v.token;
  if (typeof v.username === 'string') credentials.username = v.username;
  if (typeof v.expire === 'number') credentials.expire = v.expire;
  return credentials;
}

/** The token saved for this server, if any: a token is never sent to another server. */
export function savedLogin(file: CredentialsFile, apiUrl: string): (Credentials & { token: string }) | null {
  const saved = file.read();
  if (!saved?.token || saved.apiUrl !== apiUrl) return null;
  return { ...saved, token: saved.token };
}

/** Keeps the server address, forgets who was signed in there. */
export function forgetLogin(file: CredentialsFile, apiUrl: string): void {
  const saved = file.read();
  if (!saved || saved.apiUrl !== apiUrl || saved.token === undefined) return;
  file.write({ apiUrl });
}

/**
 * core's TokenStore port over the file, scoped to one server: a 401 from a server the stored
 * token does not belong to must not sign the operator out of the other one.
 */
export function fileTokenStore(file: CredentialsFile, apiUrl: string): TokenStore {
  return {
    get: () => savedLogin(file, apiUrl)?.token ?? null,
    set: (token) => {
      const saved = file.read();
      const same = saved?.apiUrl === apiUrl ? saved : { apiUrl };
      file.write({ ...same, token });
    },
    remove: () => forgetLogin(file, apiUrl),
  };
}
