#!/usr/bin/env node
/**
 * `npm run typecheck`: `tsc` (no emit: tsconfig.base.json) on every TypeScript project, as many
 * at once as the machine has cores, the longest first, each project's messages printed together
 * when it ends; fails if any fails.
 *
 * Why not one after another: TypeScript 5.9's `tsc` ran on one core; on the 2-core machines here
 * the seven took 110 s in a row and 82–83 s in two lanes (2026-11-28, BENCHMARKS.md ninth
 * session) — part of CI's 20-minute budget. 7 also checks on threads of its own; two at once
 * still keep both cores busy while a small project starts.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The longest first (server and ui check the most files), so no lane ends with a long one alone.
const PROJECTS = ['server', 'ui', 'core', 'cli', 'demo', 'examples', '.'];
// TypeScript 7 (the native port, `typescript-7` in package.json) checks; 5.9 (`typescript`) stays
// for tsup, whose type-file generation fails with 7 (TOOLCHAIN.md). The same checks: the port is
// the same checker, compiled. 56 s → 24 s on this 2-core machine (BENCHMARKS.md, sixteenth
// session), half a minute of CI's 20.
const tsc = path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'failed'}\n${out}`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
let ok = true;
await Promise.all(
  Array.from({ length: Math.min(queue.length, Math.max(1, availableParallelism())) }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift())
      ok = (await check(project)) && ok;
  }),
);
process.exit(ok ? 0 : 1);
