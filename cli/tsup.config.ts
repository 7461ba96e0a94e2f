import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { wanxiang: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // tsup marks a file starting with a hashbang executable, so the bin works once linked.
  banner: { js: '#!/usr/bin/env node' },
  // core is bundled from its source (tsconfig `paths`); its own dependencies (ofetch, xstate)
  // stay external and are declared in package.json.
  noExternal: ['@wanxiang/core'],
});
