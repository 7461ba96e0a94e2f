import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineProject({
  plugins: [react()],
  root: here('.'),
  // As in vite.config.ts: the UI is tested against core's source.
  resolve: { alias: { '@wanxiang/core': here('../core/src/index.ts') } },
  define: { __APP_VERSION__: JSON.stringify('test') },
  test: {
    name: 'ui',
    environment: 'jsdom',
    include: ['src/**/*.test.tsx'],
    setupFiles: ['src/test/setup.ts'],
    // A guard against a hung test, not a speed bar: on a 2-core machine running every project at
    // once, a full app render (router, lazy screens, antd) has taken just over vitest's 5 s.
    testTimeout: 20_000,
  },
});
