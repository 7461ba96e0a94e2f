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
    // Each app start hashes a few passwords with argon2id and runs migrations.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
