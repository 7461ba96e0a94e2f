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
  },
});
