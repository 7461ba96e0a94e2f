#!/usr/bin/env node
// The `wanxiang` command as npm links it at install time, when nothing is built yet: the link must
// point at a file that exists then, so it points here, and this loads the build (tsup writes
// cli/dist/wanxiang.js during `npm run build`, which `npm start` runs).
import { existsSync } from 'node:fs';

const build = new URL('../dist/wanxiang.js', import.meta.url);
if (!existsSync(build)) {
  process.stderr.write(
    'wanxiang：命令行尚未构建。请在仓库根目录运行 npm run build（npm start 也会构建）。\n',
  );
  process.exit(1);
}
await import(build.href);
