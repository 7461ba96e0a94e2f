import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // Dependencies stay in node_modules (better-sqlite3 is native), but the shared SDK is bundled
  // from its source (resolved through tsconfig `paths`), so the server build never waits on
  // core's own build.
  noExternal: ['@wanxiang/core'],
});
