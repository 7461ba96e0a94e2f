import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * Two antd internals every list would load for nothing (QUALITY.md: ≤ 400 KB before the first
 * list), swapped for stand-ins in the production build — see the files in build/:
 * - the Table's column-filter dropdown (Tree, Radio, …): our lists filter in their own filter bar
 *   and never give a column `filters`, so it never renders;
 * - the Form hook module Radio.Group imports for one string helper, copied verbatim.
 */
function lighterAntdInternals(): Plugin {
  const standIns: { importer: RegExp; source: string; file: string }[] = [
    {
      importer: /antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/,
      source: './FilterDropdown',
      file: fileURLToPath(new URL('./build/table-filter-stub.js', import.meta.url)),
    },
    {
      importer: /antd[\\/]es[\\/]radio[\\/]group\.js$/,
      source: '../form/hooks/useForm',
      file: fileURLToPath(new URL('./build/form-name-path.js', import.meta.url)),
    },
  ];
  return {
    name: 'wanxiang:lighter-antd-internals',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      return standIns.find((s) => s.source === source && s.importer.test(importer))?.file ?? null;
    },
  };
}

export default defineConfig({
  plugins: [react(), lighterAntdInternals()],
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
