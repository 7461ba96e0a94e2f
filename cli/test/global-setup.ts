/**
 * The command tests run `cli/dist/wanxiang.js`; building it here (tsup takes well under a
 * second) means they never test a stale build when run alone with `vitest --project cli`.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const cliDir = fileURLToPath(new URL('..', import.meta.url));
  const require = createRequire(import.meta.url);
  const tsupCli = join(dirname(require.resolve('tsup/package.json')), 'dist/cli-default.js');
  execFileSync(process.execPath, [tsupCli, '--silent'], {
    cwd: cliDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
