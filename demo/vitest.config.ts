import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: { '@wanxiang/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
  },
  test: { name: 'demo', environment: 'node', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
