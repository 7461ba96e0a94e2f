/**
 * Run by secret-key.test.ts in several processes at once. Prints `ready`, reads the moment to
 * begin (epoch ms) from its standard input, then at that moment and every `stepMs` after (wall
 * clock, spun for at the last few ms: a timer alone wakes too late for the processes' moments to
 * meet) loads the key of a fresh folder — every process the same folder — and prints what it got,
 * one JSON line per round: the key's hex digits, or the error's message.
 */
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadSecretKey } from '../../src/domain/certificates/secret-box.js';

const [base = '', rounds = '0', stepMs = '0'] = process.argv.slice(2);
process.stdout.write('ready\n');
const [chunk] = (await once(process.stdin, 'data')) as [Buffer];
const startAt = Number(chunk.toString().trim());
for (let round = 0; round < Number(rounds); round++) {
  const at = startAt + round * Number(stepMs);
  if (at - Date.now() > 20) await delay(at - Date.now() - 20);
  while (Date.now() < at) {
    // the last milliseconds spun
  }
  let result: string;
  try {
    result = (await loadSecretKey(null, path.join(base, `round-${round}`))).toString('hex');
  } catch (error) {
    result = `error: ${(error as Error).message}`;
  }
  process.stdout.write(`${JSON.stringify({ round, result })}\n`);
}
process.stdin.destroy();
