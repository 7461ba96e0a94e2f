import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@wanxiang/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
      '@wanxiang/demo': fileURLToPath(new URL('../demo/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Files share their worker's modules: every file imports the whole app (hundreds of modules of
    // server and core), which took ~3 s per file to evaluate again — 290 s of a server run's 500.
    // Tests share no module state that matters: each builds its own app on its own database.
    isolate: false,
    // Each app start hashes a few passwords with argon2id and runs migrations.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
