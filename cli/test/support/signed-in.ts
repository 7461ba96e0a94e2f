/**
 * A built server and a CLI signed in to it, shared by the tests of one file (a sign-in costs an
 * argon2id hash): `wx(...)` runs the built `wanxiang` with that login.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltServer, startBuiltServer } from '../../../testing/built-server';
import { type ACCOUNTS, login } from './accounts';
import { type CliResult, runCli } from './cli';

export interface SignedIn {
  configDir: string;
  wx(args: readonly string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliResult>;
  /** wx that must succeed: its stdout, or the failure with stderr. */
  ok(args: readonly string[]): Promise<string>;
  /** wx that must succeed, its stdout as JSON. */
  json<T = unknown>(args: readonly string[]): Promise<T>;
  remove(): void;
}

export async function signIn(server: BuiltServer, username: keyof typeof ACCOUNTS): Promise<SignedIn> {
  const configDir = mkdtempSync(join(tmpdir(), `wanxiang-cli-${username}-`));
  await login(server.url, configDir, username);
  const wx: SignedIn['wx'] = (args, options = {}) => runCli(args, { configDir, ...options });
  const ok = async (args: readonly string[]) => {
    const result = await wx(args);
    if (result.code !== 0) {
      throw new Error(`wanxiang ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
    }
    return result.stdout;
  };
  return {
    configDir,
    wx,
    ok,
    json: async <T>(args: readonly string[]) => JSON.parse(await ok(args)) as T,
    remove: () => rmSync(configDir, { recursive: true, force: true }),
  };
}

export async function startSignedIn(): Promise<{ server: BuiltServer; admin: SignedIn }> {
  const server = await startBuiltServer();
  return { server, admin: await signIn(server, 'admin') };
}

/** RFC 4180 records (quoted cells may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      if (char === '\r') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
}
