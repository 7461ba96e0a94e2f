import { defineConfig } from 'tsup';

export default defineConfig({
  // The export worker is a file of its own: worker threads start from a file (export/parallel.ts).
  // main.js only settles V8 before it loads start.js (main.ts).
  entry: { main: 'src/main.ts', start: 'src/start.ts', 'export-worker': 'src/resources/export/worker.ts' },
  // Each file holds what it uses and nothing else: a chunk shared with main.js made every export
  // worker load the server's whole SDK with zod and its locales (950 KB of source) where it needs
  // 145 KB.
  splitting: false,
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // Dependencies stay in node_modules (better-sqlite3 is native), but the shared SDK and the demo
  // content are bundled from their source (resolved through tsconfig `paths`), so the server
  // build never waits on their own builds and holds one copy of core.
  noExternal: ['@wanxiang/core', '@wanxiang/demo'],
});
