/**
 * `wanxiang export` and `wanxiang orders export` against the real server, over orders written
 * into its database (support/orders.ts: orders have no create route).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { runCli, tempConfigDir } from './support/cli';
import { insertOrders, type OrderSeed } from './support/orders';
import { parseCsv, type SignedIn, signIn, startSignedIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let storeA: number;
let storeB: number;
let seeds: Array<OrderSeed & { id: number }>;

const STATUSES = ['paid', 'accepted', 'completed', 'cancelled', 'pending_payment'];
/** 2024-04-01 … 2024-06-29 in China time, one order every 1.75 hours. */
const START = Date.parse('2024-04-01T00:00:00+08:00');
const COUNT = 1234;

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  const store = async (name: string) =>
    (
      await admin.json<{ id: number }>([
        'create',
        'stores',
        '--name',
        name,
        '--phone',
        '010-12345678',
        '--address',
        `${name}地址`,
        '--json',
      ])
    ).id;
  storeA = await store('三里屯店');
  storeB = await store('中关村店');
  const list: OrderSeed[] = Array.from({ length: COUNT }, (_, i) => ({
    orderNo: `WX2024${String(i).padStart(6, '0')}`,
    storeId: i % 3 === 0 ? storeB : storeA,
    status: STATUSES[i % STATUSES.length] as string,
    createdAt: new Date(START + i * 105 * 60_000),
    payableFen: 1000 + i,
    // Cells a CSV must quote: commas, quotes, line breaks, and a formula-looking start.
    address: i % 7 === 0 ? '北京市朝阳区"三里屯", SOHO 3 号楼\n2 单元' : '北京市海淀区中关村大街 1 号',
    remark: i % 11 === 0 ? '=少放辣' : null,
  }));
  const ids = insertOrders(server.dataDir, list);
  seeds = list.map((seed, i) => ({ ...seed, id: ids[i] as number }));
});

afterAll(async () => {
  admin?.remove();
  await server?.stop();
});

const total = async (...filters: string[]) =>
  (await admin.json<{ total: number }>(['list', 'orders', ...filters, '--with-total'])).total;

describe('wanxiang export', () => {
  it('writes every order as CSV with a BOM to a file; rows = the list total', async () => {
    const file = join(admin.configDir, 'orders.csv');
    const result = await admin.wx(['export', 'orders', '--format', 'csv', '--output', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header?.slice(0, 4)).toEqual(['ID', '订单号', '门店ID', '门店']);
    expect(rows).toHaveLength(await total());
    expect(rows).toHaveLength(COUNT);
    // The summary on stderr counts the same rows, quoted line breaks included.
    expect(result.stderr).toContain(`已导出 ${COUNT.toLocaleString('en-US')} 行订单`);
    expect(result.stderr).toContain(`→ ${file}`);
    // No temporary file is left beside it.
    expect(readdirSync(admin.configDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('writes NDJSON, one wire row per line, to a file', async () => {
    const file = join(admin.configDir, 'orders.ndjson');
    const result = await admin.wx(['export', 'orders', '--output', file]);
    expect(result.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(COUNT);
    const rows = lines.map((line) => JSON.parse(line) as { id: number; orderNo: string; address: string });
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(seeds.map((s) => s.id)));
    const quoted = seeds[0] as OrderSeed & { id: number };
    expect(rows.find((r) => r.id === quoted.id)?.address).toBe(quoted.address);
  });

  it('streams to stdout with the list filters applied', async () => {
    const result = await admin.wx([
      'export',
      'orders',
      '--format',
      'ndjson',
      '--status',
      'paid',
      '--store-id',
      String(storeB),
    ]);
    expect(result.code).toBe(0);
    const ids = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id)
      .sort((a, b) => a - b);
    const expected = seeds.filter((s) => s.status === 'paid' && s.storeId === storeB).map((s) => s.id);
    expect(ids).toEqual(expected);
    expect(ids).toHaveLength(await total('--status', 'paid', '--store-id', String(storeB)));
  });

  it('--progress shows progress on stderr, never on stdout', async () => {
    const result = await admin.wx(['export', 'orders', '--format', 'csv', '--progress']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/导出中 \[[█░]+\] \d+% [\d,]+\/1,234 行/);
    expect(result.stdout.startsWith('\uFEFFID,订单号')).toBe(true);
    expect(parseCsv(result.stdout.slice(1))).toHaveLength(COUNT + 1);
  });
});

describe('wanxiang orders export', () => {
  it('maps --status, --store-id, --from and --to (whole days, China time) to the orders filters', async () => {
    const file = join(admin.configDir, 'may.csv');
    const result = await admin.wx([
      'orders',
      'export',
      '--status',
      'paid,已完成',
      '--store-id',
      String(storeA),
      '--from',
      '2024-05-01',
      '--to',
      '2024-05-31',
      '--output',
      file,
    ]);
    expect(result.code).toBe(0);
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8').slice(1));
    const id = header?.indexOf('ID') ?? -1;
    const from = Date.parse('2024-05-01T00:00:00+08:00');
    const to = Date.parse('2024-06-01T00:00:00+08:00');
    const expected = seeds
      .filter(
        (s) =>
          ['paid', 'completed'].includes(s.status) &&
          s.storeId === storeA &&
          s.createdAt.getTime() >= from &&
          s.createdAt.getTime() < to,
      )
      .map((s) => String(s.id));
    expect(expected.length).toBeGreaterThan(50);
    expect(rows.map((r) => r[id]).sort()).toEqual(expected.sort());
    // For people: labels, yuan, China time; a formula-looking remark stays text.
    const status = header?.indexOf('状态') ?? -1;
    expect(new Set(rows.map((r) => r[status]))).toEqual(new Set(['已支付', '已完成']));
  });

  it('--format ndjson to stdout', async () => {
    const result = await admin.wx(['orders', 'export', '--status', 'cancelled', '--format', 'ndjson']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(
      seeds.filter((s) => s.status === 'cancelled').length,
    );
  });

  it('a bad status is a usage error before anything is sent', async () => {
    const result = await admin.wx([
      'orders',
      'export',
      '--status',
      'shipped',
      '--output',
      join(admin.configDir, 'x.csv'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('状态（--status）：状态必须是其中一个');
    expect(existsSync(join(admin.configDir, 'x.csv'))).toBe(false);
  });
});

describe('export failures', () => {
  it('needs a login: exit 4', async () => {
    const result = await runCli(['export', 'orders', '--api-url', server.url], {
      configDir: tempConfigDir(),
    });
    expect(result.code).toBe(4);
  });

  it('a 403 is reported like any command and leaves no file', async () => {
    const editor = await signIn(server, 'editor');
    try {
      const file = join(editor.configDir, 'orders.csv');
      const result = await editor.wx(['orders', 'export', '--output', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/✗ .*（403）/);
      expect(existsSync(file)).toBe(false);
      expect(readdirSync(editor.configDir).filter((f) => f.endsWith('.part'))).toEqual([]);
    } finally {
      editor.remove();
    }
  });

  it('a session signed out elsewhere ends the export with 登录超时 and exit 4', async () => {
    const operator = await signIn(server, 'operator');
    try {
      const { token } = JSON.parse(readFileSync(join(operator.configDir, 'credentials.json'), 'utf8')) as {
        token: string;
      };
      await fetch(`${server.url}/api/login/signout`, { headers: { Authorization: `Bearer ${token}` } });
      const result = await operator.wx(['export', 'orders', '--format', 'ndjson']);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('登录超时');
      expect(result.stderr).toContain('wanxiang login');
    } finally {
      operator.remove();
    }
  });

  it('an output directory that does not exist fails before the export starts', async () => {
    const result = await admin.wx([
      'export',
      'orders',
      '--output',
      join(admin.configDir, 'missing', 'o.csv'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('无法写入');
    expect(result.stderr).toContain('ENOENT');
  });
});
