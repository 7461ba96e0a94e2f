/**
 * Runs the built `wanxiang` as operators do: a separate process with its own config directory
 * and a clean environment (nothing leaks in from the developer's own login).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const CLI_ENTRY = fileURLToPath(new URL('../../dist/wanxiang.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh config directory for the current test, removed when the test ends. */
export function tempConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wanxiang-cli-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface CliOptions {
  configDir: string;
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is a pipe, never a terminal). */
  input?: string;
}

export function startCli(args: readonly string[], options: CliOptions): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.configDir,
      WANXIANG_CONFIG_DIR: options.configDir,
      ...options.env,
    },
  });
}

export async function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const child = startCli(args, options);
  const output = collect(child);
  child.stdin.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

export interface CollectedOutput {
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches (the CLI asks its questions there); no polling, no sleeps. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
}

export function collect(child: ChildProcessWithoutNullStreams): CollectedOutput {
  let stdout = '';
  let stderr = '';
  let closed = false;
  const waiters: Array<() => void> = [];
  child.on('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitForStderr(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stderr.match(pattern);
          if (match) resolve(match);
          else if (closed) reject(new Error(`the CLI ended before printing ${pattern}:\n${stderr}`));
          else waiters.push(check);
        };
        check();
      });
    },
  };
}
