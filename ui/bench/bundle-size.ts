/**
 * JavaScript loaded before a route can paint, gzip-compressed, from the production build
 * (`npm run build -w @wanxiang/ui`): the entry's static import graph from index.html plus the
 * lazy chunks of the route's layout and screen and their static imports, read from Vite's
 * manifest. Printed beside the bars of BENCHMARKS.md; exits 1 when a bar is missed or
 * admin code reaches the public home.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DefinitionLoader } from '../../core/src/resources/lazy';
import { CUSTOM_SCREEN_EXTRA_DEFINITIONS } from '../src/admin/custom-screen-definitions';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface RouteBudget {
  path: string;
  /** The lazy modules the route renders (see ui/src/app/routes.tsx). */
  screens: string[];
  barKb: number | null;
  what: string;
}

const ROUTES: RouteBudget[] = [
  {
    path: '/',
    screens: ['src/public/PublicLayout.tsx', 'src/public/blog/BlogHome.tsx'],
    barKb: 200,
    what: 'public home: JavaScript before first paint',
  },
  {
    path: '/admin/login',
    screens: ['src/login/AdminLogin.tsx'],
    barKb: 220,
    what: '/admin/login: JavaScript before the form shows',
  },
  {
    path: '/admin',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/AdminHome.tsx'],
    barKb: null,
    what: 'admin home after login',
  },
  {
    path: '/admin/OMS/store',
    screens: ['src/admin/AdminLayout.tsx', 'src/resources/ResourcePage.tsx'],
    barKb: 400,
    what: 'admin after login: JavaScript before the first list shows (every registry list screen)',
  },
  {
    path: '/admin/OMS/income',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/CustomScreen.tsx', 'src/admin/income/IncomeScreen.tsx'],
    barKb: 400,
    what: '收入统计 after login, before its charts (ECharts is a lazy chunk of its own)',
  },
  {
    path: '/admin/OMS/order',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/CustomScreen.tsx', 'src/admin/orders/OrderBoard.tsx'],
    barKb: 400,
    what: 'the order board after login (its drawer, dialogs and counter load on use)',
  },
  {
    path: '/admin/runner/dispatch',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/dispatch/DispatchBoard.tsx',
    ],
    barKb: 400,
    what: 'the dispatch screen after login',
  },
  {
    path: '/admin/monitor/job',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/monitor/MonitorJobScreen.tsx',
    ],
    barKb: 400,
    what: 'monitor jobs board after login (its detail chart is a lazy ECharts chunk)',
  },
  {
    path: '/admin/monitor/ssl',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/monitor/MonitorSslScreen.tsx',
    ],
    barKb: 400,
    what: 'certificate jobs board after login',
  },
  {
    path: '/admin/api-market/api',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/CustomScreen.tsx', 'src/admin/api-market/screens.ts'],
    barKb: 400,
    what: 'API market (its three screens are one chunk; charts lazy) after login',
  },
  {
    path: '/admin/cloud/cdn/usage',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/CustomScreen.tsx', 'src/admin/cdn/CdnUsageScreen.tsx'],
    barKb: 400,
    what: 'CDN usage board (its charts lazy) after login',
  },
  {
    path: '/admin/wechat/merchant',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/merchant/MerchantReviewScreen.tsx',
    ],
    barKb: 400,
    what: 'merchant review after login',
  },
  {
    path: '/admin/bbs/review',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/community/ReviewScreen.tsx',
    ],
    barKb: 400,
    what: 'moderation queue after login',
  },
  {
    path: '/admin/bbs/wechat',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/community/ChatBotScreen.tsx',
    ],
    barKb: 400,
    what: 'chat bots after login',
  },
  {
    path: '/admin/sys-config/old',
    screens: [
      'src/admin/AdminLayout.tsx',
      'src/admin/CustomScreen.tsx',
      'src/admin/platform/ConfigVersionsScreen.tsx',
    ],
    barKb: 400,
    what: 'config versions with their diff after login',
  },
  {
    path: '/admin/sys-tools/monitor',
    screens: ['src/admin/AdminLayout.tsx', 'src/admin/monitor/ServerMonitor.tsx'],
    barKb: 400,
    what: 'server monitor after login',
  },
];

/** Class names only admin screens use: their presence in the public closure means admin code leaked. */
const ADMIN_MARKERS = ['wx-admin-', 'wx-monitor', 'wx-income', 'wx-dashboard'];

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`${manifestPath} is missing: run \`npm run build -w @wanxiang/ui\` first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;

function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entry) throw new Error('manifest has no entry');

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

/**
 * The registry definition modules a back-office route loads before it shows (the UI loads them
 * with the screen: resources/definitions.ts, admin/custom-screens.ts), as manifest keys.
 */
async function definitionChunks(path: string): Promise<string[]> {
  const pattern = path.replace(/^\/admin\/?/, '');
  if (!path.startsWith('/admin/') || pattern === 'login') return [];
  const loader = new DefinitionLoader();
  await loader.route(pattern);
  await loader.resources(CUSTOM_SCREEN_EXTRA_DEFINITIONS[pattern] ?? []);
  // Module names are the files' in camelCase (apiMarket: api-market.ts).
  const files = new Set(
    loader.loadedModules().map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)),
  );
  return Object.keys(manifest).filter((key) => {
    const file = /^\.\.\/core\/src\/resources\/definitions\/([a-z-]+)\.ts$/.exec(key)?.[1];
    return file !== undefined && files.has(file);
  });
}

const kb = (bytes: number) => bytes / 1024;
let failed = false;
console.log('JavaScript before first paint (gzip, from ui/dist)');
for (const route of ROUTES) {
  const keys = closure([entry, ...route.screens, ...(await definitionChunks(route.path))]);
  const files = [...keys].map((k) => manifest[k]?.file ?? '').filter((f) => f.endsWith('.js'));
  const total = files.reduce((sum, file) => sum + gzipSize(file), 0);
  const within = route.barKb === null || kb(total) <= route.barKb;
  if (!within) failed = true;
  const bar = route.barKb === null ? '(no bar)' : `bar ≤ ${route.barKb} KB ${within ? 'ok' : 'MISSED'}`;
  console.log(
    `  ${route.path.padEnd(26)} ${kb(total).toFixed(1).padStart(6)} KB  ${bar.padEnd(20)} ${files.length} files — ${route.what}`,
  );
  if (route.path === '/') {
    const leaked = files.filter((file) => {
      const text = readFileSync(join(dist, file), 'utf8');
      return ADMIN_MARKERS.some((marker) => text.includes(marker));
    });
    const adminChunks = [...keys].filter((k) => manifest[k]?.src?.startsWith('src/admin/'));
    if (leaked.length > 0 || adminChunks.length > 0) {
      failed = true;
      console.log(`    admin code in the public home: ${[...leaked, ...adminChunks].join(', ')}`);
    } else {
      console.log('    no admin code in it');
    }
  }
}
process.exit(failed ? 1 : 0);
