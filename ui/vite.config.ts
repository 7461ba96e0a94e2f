import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
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

/**
 * `<link rel="modulepreload">` for the public home's lazy chunks (the public layout and the blog
 * home, with what they import), so a phone fetches them alongside the entry instead of one after
 * another once the router has run: two round trips less before the first paint of `/`, the page
 * most visitors open first. They stand between `<!-- public-home-preload -->` markers, and the
 * server (server/src/static/ui.ts) leaves the block out of every page that is not public: the back
 * office and the login screens never use the public stylesheets, and Chromium warns in the console
 * about a preloaded stylesheet nothing uses.
 */
function preloadPublicHome(): Plugin {
  const screens = ['src/public/PublicLayout.tsx', 'src/public/blog/BlogHome.tsx'];
  return {
    name: 'wanxiang:preload-public-home',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entry = chunks.find((c) => c.isEntry);
        const loaded = new Set<string>();
        const visit = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          for (const imported of byFile.get(file)?.imports ?? []) visit(imported, into);
        };
        if (entry) visit(entry.fileName, loaded);
        const wanted = new Set<string>();
        for (const chunk of chunks) {
          const source = chunk.facadeModuleId?.replace(/\\/g, '/') ?? '';
          if (screens.some((screen) => source.endsWith(`/ui/${screen}`))) visit(chunk.fileName, wanted);
        }
        const files = [...wanted].filter((file) => !loaded.has(file));
        // Their stylesheets too, fetched early but applied only when the chunk is loaded.
        const styles = files.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]);
        const links = [
          ...files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
          ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
        ];
        if (links.length === 0) return html;
        const block = ['<!-- public-home-preload -->', ...links, '<!-- /public-home-preload -->'];
        return html.replace(/\n\s*<\/head>/, `\n${block.map((line) => `    ${line}`).join('\n')}\n  </head>`);
      },
    },
  };
}

/**
 * Brotli and gzip copies of every compressible file of the build (`x.js.br`, `x.js.gz`), which
 * the server sends to browsers that accept them (@fastify/static `preCompressed`). Made once
 * here at the highest levels rather than on every request: the public home's JavaScript is
 * ~190 KB compressed against ~600 KB raw, which on a phone's connection is seconds.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'wanxiang:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|map)$/.test(file) || file.endsWith('.map')) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), lighterAntdInternals(), preloadPublicHome(), precompress()],
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
