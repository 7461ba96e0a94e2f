import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    // The examples run against core's source, so they never test a stale build.
    alias: { '@wanxiang/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
  },
  test: { name: 'examples', environment: 'node', include: ['*.test.ts'] },
});
