/**
 * How fast this machine is right now, by two fixed pieces of work printed beside a load run: a
 * CPU loop and a loopback TCP round trip (what every statement and every answer pays). The shared
 * machines here change speed between sessions by far more than any one change moves the load's
 * figures (BENCHMARKS.md, sixth session): a run is read against these, and compared only with runs
 * of similar speed.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';

const LOOP = `function spin(n) { let x = 0; for (let i = 0; i < n; i++) x ^= i; return x; }
let best = Infinity;
for (let run = 0; run < 6; run++) {
  const t0 = process.hrtime.bigint();
  spin(1e8);
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
}
console.log(best);`;

/**
 * Milliseconds for a fixed integer loop (the fastest of six), on each CPU when `taskset` is there:
 * the CPUs of one machine can run at different speeds, and which one the server's thread runs on
 * moves a whole run.
 */
export function cpuLoopMs(): { cpu: number | null; ms: number }[] {
  const run = (args: string[]) =>
    Number(execFileSync(args[0] as string, args.slice(1), { encoding: 'utf8' }).trim());
  const cpus = os.cpus().length;
  try {
    return Array.from({ length: cpus }, (_, cpu) => ({
      cpu,
      ms: run(['taskset', '-c', String(cpu), process.execPath, '-e', LOOP]),
    }));
  } catch {
    return [{ cpu: null, ms: run([process.execPath, '-e', LOOP]) }];
  }
}

/** Microseconds for one byte sent to an echo socket on 127.0.0.1 and back (the mean of 20 000). */
export async function loopbackRoundTripUs(): Promise<number> {
  const server = net.createServer((s) => s.on('data', (d) => s.write(d)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  client.setNoDelay(true);
  await new Promise((resolve) => client.once('connect', resolve));
  const n = 20_000;
  let done = 0;
  const t0 = process.hrtime.bigint();
  await new Promise<void>((resolve) => {
    client.on('data', () => {
      if (++done === n) resolve();
      else client.write('x');
    });
    client.write('x');
  });
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  client.destroy();
  await new Promise((resolve) => server.close(resolve));
  return us;
}

export async function machineSpeed(): Promise<string> {
  const loops = cpuLoopMs()
    .map((l) => (l.cpu === null ? `${l.ms.toFixed(0)} ms` : `${l.ms.toFixed(0)} ms on CPU ${l.cpu}`))
    .join(', ');
  const rtt = await loopbackRoundTripUs();
  return `a fixed CPU loop ${loops}; a loopback TCP round trip ${rtt.toFixed(1)} µs`;
}
