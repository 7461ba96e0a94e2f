/**
 * Lighthouse (npm `lighthouse`, Debian's Chromium, loopback) on the public pages most visitors
 * see — `/`, `/doc/search`, `/article/{id}` — against the built product with its demo content:
 * performance and accessibility, each beside its bar (QUALITY.md: ≥ 95). Lighthouse's default
 * settings: a mid-range phone on a throttled 4G connection, simulated (Lantern), so the figures
 * do not depend on this machine's loopback speed.
 *
 *   npm run build && node --import tsx ui/bench/lighthouse.ts
 *
 * Each page is measured BENCH_LIGHTHOUSE_RUNS times (default 3) and the median score kept, as
 * Lighthouse's own docs advise. Exits 1 when a bar is missed. Reports land in
 * ui/bench/lighthouse/ (gitignored) for a look at what cost the points.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startBuiltServer } from '../../testing/built-server';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const BAR = 95;
const REPORTS = fileURLToPath(new URL('./lighthouse/', import.meta.url));
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function firstArticleId(base: string): Promise<number> {
  const res = await fetch(`${base}/api/public/articles?limit=1`);
  const body = (await res.json()) as { data?: { results?: { id: number }[] } };
  const id = body.data?.results?.[0]?.id;
  if (!id) throw new Error(`no published article to measure: ${JSON.stringify(body).slice(0, 200)}`);
  return id;
}

async function main(): Promise<void> {
  mkdirSync(REPORTS, { recursive: true });
  const server = await startBuiltServer({ WANXIANG_DEMO: 'on' });
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  let failed = false;
  try {
    const pages = ['/', '/doc/search', `/article/${await firstArticleId(server.url)}`];
    console.log(`Lighthouse ${RUNS}× per page (median), mobile preset, simulated throttling`);
    for (const path of pages) {
      const scores: Record<'performance' | 'accessibility', number[]> = {
        performance: [],
        accessibility: [],
      };
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(`${server.url}${path}`, {
          port: chrome.port,
          onlyCategories: ['performance', 'accessibility'],
          output: 'html',
          logLevel: 'error',
        });
        if (!result) throw new Error(`lighthouse gave no result for ${path}`);
        for (const category of ['performance', 'accessibility'] as const) {
          scores[category].push(Math.round((result.lhr.categories[category]?.score ?? 0) * 100));
        }
        if (run === 0) {
          const name = path === '/' ? 'home' : path.replace(/^\//, '').replace(/\//g, '_');
          writeFileSync(`${REPORTS}${name}.html`, String(result.report));
        }
      }
      for (const category of ['performance', 'accessibility'] as const) {
        const score = median(scores[category]);
        const ok = score >= BAR;
        if (!ok) failed = true;
        console.log(
          `  ${`${path} ${category}`.padEnd(40)} ${String(score).padStart(4)}   bar ≥ ${BAR}   ${ok ? 'ok' : 'MISS'}   (runs: ${scores[category].join(', ')})`,
        );
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
  if (failed) process.exitCode = 1;
}

await main();
