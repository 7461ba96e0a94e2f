#!/usr/bin/env node
/**
 * Why this exists: the npm registry mirror these machines reach serves only the Linux builds of
 * platform-specific optional packages (biome's, rollup's, …: the macOS/Windows/Android ones
 * answer 404). `npm install` then silently leaves them out of package-lock.json, and `npm ci`
 * — which CI must use — refuses a lock file that lacks them ("Missing: … from lock file").
 *
 * This adds a stub entry (version, optional, os/cpu read from the package name) for every
 * optional dependency the lock file lacks. `npm ci` then sees a complete lock file and skips
 * the stubs, which are not for this platform. Run it after `npm install` changes the lock
 * file: `npm run lockfile:stubs`. It only adds entries; it never changes a real one.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'aix',
  'netbsd',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find((c) => parts.includes(c) || parts.some((p) => p.startsWith(c)));
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm resolves next to the dependant first, then up to the root's node_modules.
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    packages[hoisted] = {
      version: version.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added++;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform stub(s) added`);
