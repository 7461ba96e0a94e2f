// The test projects. vitest 4 ignores this file by itself, so vitest.config.ts imports it:
// this list stays the single place that names them.
export default [
  'core/vitest.config.ts',
  'demo/vitest.config.ts',
  'server/vitest.config.ts',
  'ui/vitest.config.ts',
  'ui/vitest.e2e.config.ts',
  'cli/vitest.config.ts',
  'examples/vitest.config.ts',
];
