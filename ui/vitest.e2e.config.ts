import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * End-to-end tests: the real built product (`npm run build`) in Debian's Chromium through
 * playwright-core. Each file has its own server (a free port, its own data directory) and its own
 * browser, so files run beside each other and beside the other projects' files: a project with
 * `fileParallelism: false` is put in a group of its own that vitest runs after all the others,
 * which on the 2-core CI machine left a lane idle for the 12 minutes the browser files take.
 */
export default defineProject({
  root: here('.'),
  // As in vite.config.ts: the UI is tested against core's source.
  resolve: { alias: { '@wanxiang/core': here('../core/src/index.ts') } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    retry: 0,
  },
});
