/**
 * Run by secret-key.test.ts in several processes at once: at each of the agreed moments (wall
 * clock, spun for), loads the key of a fresh folder — every process the same folder — and prints
 * what it got, one JSON line per round: the key's hex digits, or the error's message.
 */
import path from 'node:path';
import { loadSecretKey } from '../../src/domain/certificates/secret-box.js';

const [base = '', startAt = '0', rounds = '0', stepMs = '0'] = process.argv.slice(2);
for (let round = 0; round < Number(rounds); round++) {
  const at = Number(startAt) + round * Number(stepMs);
  while (Date.now() < at) {
    // spin: a timer wakes too late for the moments to meet
  }
  let result: string;
  try {
    result = loadSecretKey(null, path.join(base, `round-${round}`)).toString('hex');
  } catch (error) {
    result = `error: ${(error as Error).message}`;
  }
  process.stdout.write(`${JSON.stringify({ round, result })}\n`);
}
