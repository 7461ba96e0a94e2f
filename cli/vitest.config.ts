import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: { '@wanxiang/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'cli',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // The command tests run the built CLI as a process against the built server (argon2id
    // sign-ins, a server start per file).
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
