/**
 * `wanxiang orders show|refund` and `orders export --store/--since/--until` against the real
 * built server: an order placed and paid by balance over the API (the counter's route), then
 * looked at and refunded from the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { readCredentials } from './support/accounts';
import { parseCsv, type SignedIn, startSignedIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let token: string;
let order: { id: number; orderNo: string; payableFen: number; userId: number };

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  return json.data;
}

const balance = async (userId: number) =>
  (await api<{ balanceFen: number }>('GET', `/api/admin/users/${userId}`)).balanceFen;

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  token = readCredentials(admin.configDir).token as string;
  const store = await admin.json<{ id: number }>([
    'create',
    'stores',
    '--name',
    '东直门店',
    '--phone',
    '010-12345678',
    '--address',
    '北京市东城区东直门 1 号',
    '--json',
  ]);
  await admin.ok(['action', 'stores', String(store.id), 'open']);
  const category = await admin.json<{ id: number }>([
    'create',
    'goodsCategories',
    '--store-id',
    String(store.id),
    '--name',
    '主食',
    '--json',
  ]);
  const good = await admin.json<{ id: number }>([
    'create',
    'goods',
    '--store-id',
    String(store.id),
    '--category-id',
    String(category.id),
    '--name',
    '炸酱面',
    '--price-fen',
    '2200',
    '--stock',
    '50',
    '--json',
  ]);
  await admin.ok(['action', 'goods', String(good.id), 'putOn']);
  const users = await api<{ results: { id: number; username: string }[] }>('GET', '/api/admin/users?q=guest');
  const guest = users.results.find((u) => u.username === 'guest') as { id: number };
  // A dine-in order paid in cash at the counter: its refunds are paid back there, not to a balance.
  const placed = await api<{ id: number; orderNo: string; payableFen: number }>('POST', '/api/admin/orders', {
    storeId: store.id,
    userId: guest.id,
    items: [{ goodsId: good.id, qty: 3 }],
    fulfilment: 'dineIn',
    payMethod: 'cash',
    remark: '少放辣',
  });
  await api('POST', `/api/admin/orders/${placed.id}/pay`, { payMethod: 'cash' });
  order = { ...placed, userId: guest.id };
});

afterAll(async () => {
  admin?.remove();
  await server?.stop();
});

describe('wanxiang orders show / refund', () => {
  it('shows an order by its number: lines, money and the timeline', async () => {
    const out = await admin.ok(['orders', 'show', order.orderNo]);
    expect(out).toContain(`订单 ${order.orderNo}  已支付`);
    expect(out).toContain('炸酱面');
    expect(out).toContain('¥66.00');
    expect(out).toContain('备注：少放辣');
    expect(out).toMatch(/待支付 → 已支付/);
    const json = await admin.json<{ orderNo: string; history: unknown[] }>([
      'orders',
      'show',
      order.orderNo,
      '--json',
    ]);
    expect(json.orderNo).toBe(order.orderNo);
    expect(json.history.length).toBe(2);
  });

  it('refunds part of it, then refuses more than is left, in Chinese with exit 1', async () => {
    const b0 = await balance(order.userId);
    const out = await admin.ok([
      'orders',
      'refund',
      order.orderNo,
      '--amount',
      '12.5',
      '--reason',
      '少上一份小菜',
      '--yes',
    ]);
    expect(out).toMatch(/^已退款 ¥12\.50（部分，退款单号 R\d{22}）/);
    const more = await admin.wx([
      'orders',
      'refund',
      order.orderNo,
      '--amount',
      '100',
      '--reason',
      '多退',
      '--yes',
    ]);
    expect(more.code).toBe(1);
    expect(more.stderr).toContain('退款金额不能超过可退金额 ¥53.50');
    // Paid in cash: the money goes back at the counter, not to the balance.
    expect(await balance(order.userId)).toBe(b0);
    expect(await admin.ok(['orders', 'show', order.orderNo])).toContain('部分退款 ¥12.50');
  });

  it('refuses a bad amount and an unknown order number as usage errors', async () => {
    const bad = await admin.wx([
      'orders',
      'refund',
      order.orderNo,
      '--amount',
      '1.234',
      '--reason',
      'x',
      '--yes',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('退款金额须为大于 0 的元数');
    const unknown = await admin.wx(['orders', 'show', '12345']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('没有订单号为 12345 的订单');
  });

  it('exports by store name and date range', async () => {
    const csv = await admin.ok([
      'orders',
      'export',
      '--store',
      '东直门店',
      '--since',
      '2000-01-01',
      '--until',
      '2100-01-01',
    ]);
    const rows = parseCsv(csv.replace(/^\uFEFF/, ''));
    expect(rows.length).toBe(2);
    expect(rows[1]).toContain(order.orderNo);
    const none = await admin.wx(['orders', 'export', '--store', '没有的店']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('没有名为「没有的店」的门店');
  });
});

describe('wanxiang printers test', () => {
  it('prints the test page on a printer that takes it, and fails with the reason on one that refuses', async () => {
    const net = await import('node:net');
    const got: Buffer[] = [];
    const printer = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => {
        got.push(Buffer.concat(chunks));
        socket.end();
      });
    });
    await new Promise<void>((resolve) => printer.listen(0, '127.0.0.1', resolve));
    const port = (printer.address() as { port: number }).port;
    const stores = await api<{ results: { id: number }[] }>('GET', '/api/admin/stores?q=东直门店');
    const storeId = stores.results[0]?.id as number;
    const make = (p: number, name: string) =>
      admin.json<{ id: number }>([
        'create',
        'printers',
        '--store-id',
        String(storeId),
        '--name',
        name,
        '--host',
        '127.0.0.1',
        '--port',
        String(p),
        '--json',
      ]);
    const good = await make(port, '后厨打印机');
    const out = await admin.ok(['printers', 'test', String(good.id)]);
    expect(out).toMatch(/^测试页已打印（打印任务 #\d+）/);
    expect(got.length).toBe(1);
    printer.close();
    // Nothing listens on the closed port any more: the connection is refused.
    const gone = await make(port, '已拔线的打印机');
    const failed = await admin.wx(['printers', 'test', String(gone.id)]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('测试页没有打印出来');
  });
});
