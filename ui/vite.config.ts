import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The short commit hash of the checkout, shown on the 404 screen; 'dev' outside git. */
function buildVersion(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{4,40}$/.test(hash) ? hash : 'dev';
  } catch {
    return 'dev';
  }
}

export default defineConfig({
  plugins: [react()],
  // The UI always builds from core's source; the production build bundles it.
  resolve: { alias: { '@wanxiang/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) } },
  define: { __APP_VERSION__: JSON.stringify(buildVersion()) },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/ws': { target: 'ws://127.0.0.1:8080', ws: true } },
  },
  build: {
    target: 'es2022',
    // bench/bundle-size.ts follows the import graph of each route through the manifest.
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      treeshake: {
        // antd's own rc-components declare no `sideEffects`, so a bundler keeps every module they
        // import even when nothing uses it: one antd Input drags in the whole form engine. They
        // are plain component modules with no import-time effects; saying so keeps the public
        // home and the login screen under their size bars (QUALITY.md, bench/bundle-size.ts).
        moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false }],
      },
    },
  },
});
