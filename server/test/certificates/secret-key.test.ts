/**
 * DATA_DIR/secret.key made once by whichever process starts first: several processes on one data
 * folder starting at the same moment (a restart of a cluster on one machine) all get the same key,
 * and none finds it half written.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const RACER = fileURLToPath(new URL('../helpers/secret-key-racer.ts', import.meta.url));
const base = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-secret-key-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('processes making the key at the same moment all get one key, whole', { timeout: 60_000 }, async () => {
  const rounds = 40;
  // Far enough ahead for every process to have started (tsx compiles the module first).
  const startAt = Date.now() + 8_000;
  const runs = await Promise.all(
    [0, 1, 2].map(() =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', RACER, base, String(startAt), String(rounds), '25'],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      ),
    ),
  );
  const results = runs.map(({ stdout }) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { result: string }).result),
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
