/**
 * `npm run bench`: every benchmark of the project, each printing its figures beside the bars of
 * BENCHMARKS.md. Timings live here, never in the test suite.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// bench/orders.ts seeds 1 000 000 orders (BENCH_ORDERS=… for another size) and takes a few minutes;
// server/bench/doc-search.ts loads 50 000 documents (~5 min); BENCH_POSTGRES_URL=postgres://… adds
// the PostgreSQL figures to both. ui/bench/lighthouse.ts needs /usr/bin/chromium. bench/monitor-scheduler.ts
// runs 1 000 monitor jobs for 2 minutes (BENCH_MONITOR_SECONDS=… for less). bench/api-gateway.ts
// compares the gateway with the same tool's public route (about 2 minutes). bench/cdn-import.ts
// writes a 1 000 000-line access log (~210 MB plain, 14 MB gzipped) and imports both (~10 s).
// bench/load.ts runs 64 connections of mixed reads and writes through the built server for 60 s
// after 30 s of warm-up (BENCH_LOAD_SECONDS=… for less; PostgreSQL too with BENCH_POSTGRES_URL).
const benches = [
  'core/bench/pricing.ts',
  'server/bench/auth.ts',
  'ui/bench/bundle-size.ts',
  'ui/bench/lighthouse.ts',
  'bench/orders.ts',
  'server/bench/doc-search.ts',
  'bench/monitor-scheduler.ts',
  'bench/api-gateway.ts',
  'bench/cdn-import.ts',
  'bench/sensitive-words.ts',
  'bench/load.ts',
];

let failed = false;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
