import { defineConfig } from 'tsup';

export default defineConfig({
  // The export worker is a file of its own: worker threads start from a file (export-parallel.ts).
  entry: { main: 'src/main.ts', 'export-worker': 'src/resources/export-worker.ts' },
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
