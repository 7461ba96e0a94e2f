import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * End-to-end tests: the real built product (`npm run build`) in Debian's Chromium through
 * playwright-core. One file at a time, each with its own server and data directory.
 */
export default defineProject({
  root: here('.'),
  // As in vite.config.ts: the UI is tested against core's source.
  resolve: { alias: { '@wanxiang/core': here('../core/src/index.ts') } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    retry: 0,
  },
});
