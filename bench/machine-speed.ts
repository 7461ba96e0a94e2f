/**
 * How fast this machine is right now, by fixed pieces of work printed beside a load run: a CPU
 * loop, a loopback TCP round trip within one process, and one to another process (what every
 * statement to PostgreSQL and every answer to a client pays: the other side must be woken). The
 * first two did not show why the sixth to eighth sessions' machines ran the load at half the
 * fifth's speed; the third, first read on the eighth's (59 µs, twice the second), is there to be
 * compared with a faster machine's (BENCHMARKS.md, eighth session). The shared
 * machines here change speed between sessions by far more than any one change moves the load's
 * figures (BENCHMARKS.md, sixth session): a run is read against these, and compared only with runs
 * of similar speed.
 */
import { execFileSync, spawn } from 'node:child_process';
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

/**
 * Microseconds for one byte sent to an echo socket on 127.0.0.1 and back (the mean of 20 000),
 * the echo in this process or, with `otherProcess`, in a process of its own.
 */
export async function loopbackRoundTripUs(otherProcess = false): Promise<number> {
  let port: number;
  let stop: () => Promise<unknown>;
  if (otherProcess) {
    const echo = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:net').createServer((c) => { c.setNoDelay(true); c.on('data', (d) => c.write(d)); });
         s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    port = await new Promise<number>((resolve, reject) => {
      echo.stdout.once('data', (d: Buffer) => resolve(Number(d)));
      // A child that cannot start must not leave the bench waiting for ever.
      echo.once('error', reject);
      echo.once('exit', (code) => reject(new Error(`the echo process exited (${code})`)));
    });
    stop = () => {
      const exited = new Promise((resolve) => echo.once('exit', resolve));
      echo.kill();
      return exited;
    };
  } else {
    const server = net.createServer((s) => s.on('data', (d) => s.write(d)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    stop = () => new Promise((resolve) => server.close(resolve));
  }
  const client = net.connect(port, '127.0.0.1');
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
  await stop();
  return us;
}

export async function machineSpeed(): Promise<string> {
  const loops = cpuLoopMs()
    .map((l) => (l.cpu === null ? `${l.ms.toFixed(0)} ms` : `${l.ms.toFixed(0)} ms on CPU ${l.cpu}`))
    .join(', ');
  const rtt = await loopbackRoundTripUs();
  const across = await loopbackRoundTripUs(true);
  return `a fixed CPU loop ${loops}; a loopback TCP round trip ${rtt.toFixed(1)} µs, ${across.toFixed(1)} µs to another process`;
}
