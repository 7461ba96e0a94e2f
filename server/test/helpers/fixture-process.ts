/**
 * How a test starts one of its own server-process scripts (a fixture under test/…/fixtures that
 * imports the app's source): the script bundled once per test worker with the server's own build
 * settings (tsup, core and demo from their source, dependencies from node_modules), then run by
 * plain node. Through `node --import tsx` each process loaded and transformed the sources module
 * by module: 7.0 s of CPU to listening against 3.3 s for the bundled server, and the two-process
 * tests start twelve such processes a run. Bundling takes about a second (0.9 s measured). A
 * worker keeps its bundle for the files it runs next: under `vitest --watch`, a change to the
 * server's source reaches these processes once the watcher is restarted.
 *
 * The bundle sits one folder below the server package, as dist/start.js does, so the paths the
 * app resolves from its own location (config.ts: the UI build, the package folder) are the same.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Options } from 'tsup';
import serverBuild from '../../tsup.config.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
/** Emptied of this run's bundles by test/global-setup.ts's teardown (`removeRunBundles`). */
const BUNDLE_DIR = path.join(SERVER_DIR, '.test-bundles');

/**
 * What stays in node_modules, as in the server's build (tsup leaves a package's dependencies
 * external by reading its package.json, but the tests run from the repository's root): the
 * dependencies of the server and of the two packages bundled from source.
 */
function dependencies(): string[] {
  const of = (dir: string) =>
    Object.keys(
      (
        JSON.parse(readFileSync(path.join(SERVER_DIR, dir, 'package.json'), 'utf8')) as {
          dependencies?: Record<string, string>;
        }
      ).dependencies ?? {},
    );
  return [...new Set([...of('.'), ...of('../core'), ...of('../demo')])].filter(
    (d) => !d.startsWith('@wanxiang/'),
  );
}

const bundles = new Map<string, Promise<string>>();

/** `node` arguments that run `script` (a fixture's .ts file): its bundle, made on first use. */
export async function fixtureArgs(script: string): Promise<string[]> {
  let bundle = bundles.get(script);
  if (!bundle) {
    bundle = bundleFixture(script);
    bundles.set(script, bundle);
  }
  return [await bundle];
}

async function bundleFixture(script: string): Promise<string> {
  // This worker's own file (workers run beside each other and may bundle the same script), named
  // for the run (global-setup.ts) so its teardown removes it.
  const name = `${runPrefix()}${path.basename(script, '.ts')}-${process.pid}`;
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const file = path.join(BUNDLE_DIR, `${name}.js`);
  // The server's own build settings (tsup.config.ts), for this one file.
  await build({
    ...(serverBuild as Options),
    config: false,
    entry: { [name]: script },
    outDir: BUNDLE_DIR,
    clean: false,
    silent: true,
    tsconfig: path.join(SERVER_DIR, 'tsconfig.json'),
    external: dependencies(),
  });
  return file;
}

function runPrefix(): string {
  return `run-${process.env.WANXIANG_TEST_RUN ?? 'alone'}-`;
}

/** Removes the bundles of this run (the test run's teardown). */
export function removeRunBundles(): void {
  let files: string[];
  try {
    files = readdirSync(BUNDLE_DIR);
  } catch {
    return;
  }
  for (const file of files)
    if (file.startsWith(runPrefix())) rmSync(path.join(BUNDLE_DIR, file), { force: true });
}
