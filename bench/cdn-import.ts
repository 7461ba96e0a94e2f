/**
 * The CDN import bar of QUALITY.md: 1 000 000 nginx combined-format lines (with
 * `$upstream_cache_status`, spread over 24 hours) imported through the built server
 * (`server/dist/main.js`, SQLite) in ≤ 10 s with flat memory — once as a plain file, once
 * gzipped (into a second domain, so the per-file dedupe does not make it a no-op). The file is
 * streamed to POST /api/admin/cdnDomains/{id}/import as the CLI sends it. Reported: seconds,
 * the server's RSS before and its peak during each import (sampled every 50 ms from /proc), and
 * the file sizes: memory is flat when the peak stays far below the file's size.
 *
 *   npm run build && node --import tsx bench/cdn-import.ts
 *
 * BENCH_CDN_LINES (1000000) for another size. Exits non-zero when a bar is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { freePort } from '../testing/built-server';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = path.join(ROOT, 'server/dist/main.js');
const LINES = Number(process.env.BENCH_CDN_LINES ?? 1_000_000);
const BAR_S = 10;
const ADMIN_PASSWORD = 'Bench#Admin-2024';
const CAPTCHA = 'bench-cdn';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CACHE = ['HIT', 'HIT', 'HIT', 'MISS', 'EXPIRED', 'HIT', 'STALE', 'BYPASS'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47',
  'curl/8.5.0',
];

function timeLocal(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0800`;
}

async function writeLog(file: string, gzip: boolean): Promise<void> {
  const start = Date.UTC(2025, 2, 1, 16);
  const step = (24 * 3_600_000) / LINES;
  async function* lines() {
    let batch: string[] = [];
    for (let i = 0; i < LINES; i++) {
      const status = i % 50 === 0 ? 404 : i % 211 === 0 ? 502 : i % 9 === 0 ? 304 : 200;
      batch.push(
        `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255} - - [${timeLocal(start + i * step)}] "GET /static/img/${i % 5000}.jpg?v=${i % 7} HTTP/1.1" ${status} ${status === 200 ? 2000 + (i % 90_000) : 0} "https://www.example.com/page/${i % 300}" "${AGENTS[i % 3]}" ${CACHE[i % 8]}\n`,
      );
      if (batch.length === 5000) {
        yield batch.join('');
        batch = [];
      }
    }
    if (batch.length > 0) yield batch.join('');
  }
  if (gzip) await pipeline(Readable.from(lines()), createGzip({ level: 6 }), createWriteStream(file));
  else await pipeline(Readable.from(lines()), createWriteStream(file));
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WANXIANG_ADMIN_PASSWORD: ADMIN_PASSWORD,
      WANXIANG_CAPTCHA_TEST_CODE: CAPTCHA,
      WANXIANG_DEMO: 'off',
      LOG_LEVEL: 'warn',
      SCHEDULER: 'off',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/public/config`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function signIn(url: string): Promise<string> {
  const { captchaId } = (await (await fetch(`${url}/api/captcha/request`)).json()) as { captchaId: string };
  const res = await fetch(`${url}/api/login/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, captchaId, captchaCode: CAPTCHA }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-bench-cdn-'));
  const plain = path.join(dir, 'access.log');
  const gz = path.join(dir, 'access.log.gz');
  await writeLog(plain, false);
  await writeLog(gz, true);
  const server = await startServer(path.join(dir, 'data'));
  const pid = server.child.pid as number;
  let failed = false;
  try {
    const token = await signIn(server.url);
    const auth = { authorization: `Bearer ${token}` };
    for (const [name, file] of [
      ['plain', plain],
      ['gzip', gz],
    ] as const) {
      const created = await fetch(`${server.url}/api/admin/cdnDomains`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ domain: `${name}.example.com`, origin: 'origin.example.com' }),
      });
      const id = ((await created.json()) as { data: { id: number } }).data.id;
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
      }, 50);
      const t0 = performance.now();
      const res = await fetch(
        `${server.url}/api/admin/cdnDomains/${id}/import?fileName=${path.basename(file)}`,
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: Readable.toWeb(createReadStream(file)) as ReadableStream,
          duplex: 'half',
        } as RequestInit,
      );
      const body = (await res.json()) as {
        success: boolean;
        message: string;
        data?: { import: Record<string, number> };
      };
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      const size = statSync(file).size / 2 ** 20;
      const i = body.data?.import;
      const ok = body.success && i?.lines === LINES && i?.malformed === 0 && seconds <= BAR_S;
      if (!ok) failed = true;
      console.log(
        `${name.padEnd(5)} ${LINES.toLocaleString('en')} lines, file ${size.toFixed(0)} MB: ${seconds.toFixed(2)} s ` +
          `(bar ≤ ${BAR_S} s) ${ok ? 'ok' : 'MISSED'}; server RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB ` +
          `(+${(peak - before).toFixed(0)} MB); ${i?.hours} hours, ${i?.requests} requests — ${body.message}`,
      );
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
