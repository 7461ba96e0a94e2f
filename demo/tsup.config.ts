import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: true,
  // sharp stays in node_modules (native); core is a dependency like any other here. The server
  // bundles this package from its source (its tsconfig `paths`), beside core's.
  external: ['sharp', '@wanxiang/core'],
});
