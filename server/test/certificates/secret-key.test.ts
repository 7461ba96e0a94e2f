/**
 * DATA_DIR/secret.key made once by whichever process starts first: several processes on one data
 * folder starting at the same moment (a restart of a cluster on one machine) all get the same key,
 * and none finds it half written.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const RACER = fileURLToPath(new URL('../helpers/secret-key-racer.ts', import.meta.url));
const base = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-secret-key-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A racer process: resolves `ready` once it has loaded, `lines` with everything it printed. */
function racer(rounds: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER, base, String(rounds), '20'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = once(child, 'exit');
  // Ready once it says so; a racer that ends before that fails the test with what it printed
  // (its standard error is the test's), instead of leaving it waiting for the timeout.
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
      if (output.startsWith('ready\n')) resolve();
    });
    void exited.then(([code]) => reject(new Error(`a racer ended (${code}) before it was ready: ${output}`)));
  });
  const lines = exited.then(() => output.split('\n').slice(1).filter(Boolean));
  return { child, ready, lines };
}

it('processes making the key at the same moment all get one key, whole', { timeout: 60_000 }, async () => {
  const rounds = 40;
  const racers = [racer(rounds), racer(rounds), racer(rounds)];
  await Promise.all(racers.map((r) => r.ready));
  const startAt = Date.now() + 200;
  for (const r of racers) r.child.stdin.write(`${startAt}\n`);
  const results = (await Promise.all(racers.map((r) => r.lines))).map((lines) =>
    lines.map((line) => (JSON.parse(line) as { result: string }).result),
  );
  for (let round = 0; round < rounds; round++) {
    const folder = path.join(base, `round-${round}`);
    const onDisk = readFileSync(path.join(folder, 'secret.key'), 'utf8').trim();
    expect(onDisk).toMatch(/^[0-9a-f]{64}$/);
    expect(
      results.map((r) => r[round]),
      `round ${round}`,
    ).toEqual([onDisk, onDisk, onDisk]);
    // Nothing left beside it.
    expect(readdirSync(folder)).toEqual(['secret.key']);
  }
});
