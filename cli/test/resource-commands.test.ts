/** list / get / create / update / delete / action against the real built server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { runCli, tempConfigDir } from './support/cli';
import { parseCsv, type SignedIn, signIn, startSignedIn } from './support/signed-in';

interface StoreRow {
  id: number;
  name: string;
  status: string;
  minOrderFen: number;
  updatedAt: string;
  [field: string]: unknown;
}

let server: BuiltServer;
let admin: SignedIn;
/** Three stores made through the CLI; 东直门 is open, the others paused (the default). */
const stores: Record<'dongzhimen' | 'guomao' | 'xidan', StoreRow> = {} as never;

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  const make = (name: string, minOrderFen: number) =>
    admin.json<StoreRow>([
      'create',
      'stores',
      '--name',
      name,
      '--phone',
      '010-6500 1234',
      '--address',
      `北京市${name}大街 1 号`,
      '--min-order-fen',
      String(minOrderFen),
      '--json',
    ]);
  stores.dongzhimen = await make('东直门店', 2000);
  stores.guomao = await make('国贸店', 1500);
  stores.xidan = await make('西单店', 0);
  stores.dongzhimen = await admin.json<StoreRow>([
    'action',
    'stores',
    String(stores.dongzhimen.id),
    'open',
    '--json',
  ]);
});

afterAll(async () => {
  admin?.remove();
  await server?.stop();
});

describe('wanxiang list', () => {
  const base = ['list', 'stores', '--q', '店', '--sort', 'id'];

  it('--format json prints the rows as a JSON array', async () => {
    const rows = await admin.json<StoreRow[]>([...base, '--format', 'json']);
    expect(rows.map((r) => r.name)).toEqual(['东直门店', '国贸店', '西单店']);
    expect(rows[0]).toMatchObject({ status: 'open', minOrderFen: 2000, phone: '010-6500 1234' });
    expect(rows[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it('--with-total prints {total, rows}', async () => {
    const answer = await admin.json<{ total: number; rows: StoreRow[] }>([
      ...base,
      '--limit',
      '2',
      '--with-total',
    ]);
    expect(answer.total).toBe(3);
    expect(answer.rows.map((r) => r.name)).toEqual(['东直门店', '国贸店']);
    expect(Object.keys(answer).sort()).toEqual(['rows', 'total']);
  });

  it('--format csv prints a header of field names and one record per row', async () => {
    const records = parseCsv(await admin.ok([...base, '--format', 'csv']));
    expect(records[0]?.slice(0, 4)).toEqual(['id', 'name', 'logo', 'phone']);
    expect(records[0]).toContain('createdAt');
    expect(records).toHaveLength(4);
    const name = records[0]?.indexOf('name') ?? -1;
    const status = records[0]?.indexOf('status') ?? -1;
    expect(records.slice(1).map((r) => [r[name], r[status]])).toEqual([
      ['东直门店', 'open'],
      ['国贸店', 'paused'],
      ['西单店', 'paused'],
    ]);
  });

  it('--format ndjson prints one JSON row per line', async () => {
    const lines = (await admin.ok([...base, '--format', 'ndjson'])).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => (JSON.parse(line) as StoreRow).id)).toEqual([
      stores.dongzhimen.id,
      stores.guomao.id,
      stores.xidan.id,
    ]);
  });

  it('the table is for people: Chinese headers, enum labels, ¥, dates, the page on stderr', async () => {
    const result = await admin.wx([...base]);
    expect(result.code).toBe(0);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+门店名称\s+电话\s+地址\s+营业时间\s+状态\s+配送半径（米）\s+起送价/);
    expect(lines[0]).toMatch(/东直门店.*营业中.*¥20\.00/);
    expect(lines[1]).toMatch(/国贸店.*暂停营业.*¥15\.00/);
    expect(lines[0]).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(result.stderr).toContain('第 1/1 页，每页 20 条，共 3 条');
  });

  it('fits the terminal width, leaving out columns from the right and saying which', async () => {
    const result = await admin.wx([...base], { env: { COLUMNS: '60' } });
    for (const line of result.stdout.trimEnd().split('\n')) {
      // Chinese characters take two columns.
      expect(
        [...line].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(c) ? 2 : 1), 0),
      ).toBeLessThanOrEqual(60);
    }
    expect(result.stdout).toContain('门店名称');
    expect(result.stdout).not.toContain('创建时间');
    expect(result.stderr).toMatch(/终端宽度不够，未显示：.*创建时间/);
  });

  it('shows related rows by name', async () => {
    const category = await admin.json<{ id: number }>([
      'create',
      'goodsCategories',
      '--store-id',
      String(stores.guomao.id),
      '--name',
      '招牌面',
      '--json',
    ]);
    const result = await admin.wx(['list', 'goodsCategories', '--store-id', String(stores.guomao.id)]);
    expect(result.stdout).toMatch(new RegExp(`^\\s*${category.id}\\s+国贸店\\s+招牌面`, 'm'));
  });

  it('applies filters, ranges, lists and sort', async () => {
    const names = async (...args: string[]) =>
      (await admin.json<StoreRow[]>(['list', 'stores', ...args, '--json'])).map((r) => r.name);
    expect(await names('--status', 'open')).toEqual(['东直门店']);
    // Enum labels are accepted too.
    expect(await names('--status', '暂停营业', '--sort', 'name')).toEqual(['国贸店', '西单店']);
    expect(await names('--status-in', 'open,paused', '--sort', '-id')).toEqual([
      '西单店',
      '国贸店',
      '东直门店',
    ]);
    expect(await names('--id-gte', String(stores.guomao.id), '--sort', 'id')).toEqual(['国贸店', '西单店']);
    expect(await names('--created-at-lte', '2000-01-01')).toEqual([]);
    expect(await names('--q', '国贸')).toEqual(['国贸店']);
    expect(await names('--sort', 'id', '--limit', '1', '--page', '3')).toEqual(['西单店']);
  });

  it('needs a login: exit 4', async () => {
    const result = await runCli(['list', 'stores', '--api-url', server.url], { configDir: tempConfigDir() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`尚未登录 ${server.url}`);
  });

  it('a role without the permission gets the server’s 403, exit 1', async () => {
    const editor = await signIn(server, 'editor');
    try {
      const result = await editor.wx(['list', 'stores']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/✗ .*（403）/);
    } finally {
      editor.remove();
    }
  });
});

describe('create → get → update → delete', () => {
  it('round trip of a store', async () => {
    const created = await admin.json<StoreRow>([
      'create',
      'stores',
      '--name',
      '望京店',
      '--phone',
      '010-8888 0000',
      '--address',
      '望京街 9 号',
      '--delivery-radius-m',
      '5000',
      '--auto-accept',
      '--json',
    ]);
    expect(created).toMatchObject({
      name: '望京店',
      deliveryRadiusM: 5000,
      autoAccept: true,
      status: 'paused',
    });

    const shown = await admin.wx(['get', 'stores', String(created.id)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^门店名称\s+望京店$/m);
    expect(shown.stdout).toMatch(/^自动接单\s+是$/m);
    expect(shown.stdout).toMatch(/^配送半径（米）\s+5000$/m);
    expect(await admin.json<StoreRow>(['get', 'stores', String(created.id), '--json'])).toEqual(created);

    const updated = await admin.json<StoreRow>([
      'update',
      'stores',
      String(created.id),
      '--min-order-fen',
      '2500',
      '--auto-accept',
      'false',
      '--if-match',
      created.updatedAt,
      '--json',
    ]);
    expect(updated).toMatchObject({ id: created.id, name: '望京店', minOrderFen: 2500, autoAccept: false });
    expect(updated.updatedAt > created.updatedAt).toBe(true);

    const deleted = await admin.wx(['delete', 'stores', String(created.id), '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain('删除成功');
    const gone = await admin.wx(['get', 'stores', String(created.id)]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('（404）');
  });

  it('round trip of a member level, body from --data @file and stdin', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(admin.configDir, 'level.json');
    writeFileSync(
      file,
      JSON.stringify({ name: '白金会员', pointsThreshold: 5000, discountRate: 90, benefits: '生日双倍积分' }),
    );
    const created = await admin.json<StoreRow>([
      'create',
      'memberLevels',
      '--data',
      `@${file}`,
      '--discount-rate',
      '88',
      '--json',
    ]);
    // Flags win over --data.
    expect(created).toMatchObject({
      name: '白金会员',
      pointsThreshold: 5000,
      discountRate: 88,
      benefits: '生日双倍积分',
    });

    const table = await admin.ok(['get', 'memberLevels', String(created.id)]);
    expect(table).toMatch(/^权益说明\s+生日双倍积分$/m);

    const piped = await admin.wx(['update', 'memberLevels', String(created.id), '--data', '@-', '--json'], {
      input: '{"benefits": ""}',
    });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ id: created.id, benefits: null });

    expect((await admin.wx(['delete', 'memberLevels', String(created.id), '--yes'])).code).toBe(0);
    const list = await admin.json<{ total: number }>(['list', 'memberLevels', '--q', '白金', '--with-total']);
    expect(list.total).toBe(0);
  });

  it('a validation failure prints the field messages, exit 1, and changes nothing', async () => {
    const result = await admin.wx([
      'create',
      'memberLevels',
      '--name',
      '青铜会员',
      '--points-threshold',
      '-1',
      '--discount-rate',
      '120',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('所需积分（--points-threshold）：');
    expect(result.stderr).toContain('折扣（%）（--discount-rate）：');
    const list = await admin.json<{ total: number }>(['list', 'memberLevels', '--q', '青铜', '--with-total']);
    expect(list.total).toBe(0);
  });

  it("the server's 422 field messages are shown the same way", async () => {
    const result = await admin.wx(['create', 'goodsCategories', '--store-id', '99999', '--name', '饮品']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('服务端拒绝');
    expect(result.stderr).toContain('门店（--store-id）：所选的门店不存在');
  });

  it('a stale --if-match is the 409, with the way out', async () => {
    const before = stores.xidan.updatedAt;
    await admin.ok(['update', 'stores', String(stores.xidan.id), '--business-hours', '10:00-22:00']);
    const result = await admin.wx([
      'update',
      'stores',
      String(stores.xidan.id),
      '--name',
      '西单大悦城店',
      '--if-match',
      before,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('数据已被他人修改，请刷新后重试（409）');
    expect(result.stderr).toContain(`wanxiang get stores ${stores.xidan.id}`);
    expect((await admin.json<StoreRow>(['get', 'stores', String(stores.xidan.id), '--json'])).name).toBe(
      '西单店',
    );
  });

  it('update without any field is a usage error', async () => {
    const result = await admin.wx(['update', 'stores', String(stores.xidan.id)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('没有要修改的字段');
  });

  it('delete refuses without --yes when not in a terminal, and the row stays', async () => {
    const result = await admin.wx(['delete', 'stores', String(stores.guomao.id)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`需要确认：删除门店 #${stores.guomao.id}`);
    expect((await admin.wx(['get', 'stores', String(stores.guomao.id)])).code).toBe(0);
  });
});

describe('wanxiang action', () => {
  it('runs the registry actions: open, pause', async () => {
    const id = String(stores.guomao.id);
    const opened = await admin.wx(['action', 'stores', id, 'open']);
    expect(opened.code).toBe(0);
    expect(opened.stdout).toMatch(/^状态\s+营业中$/m);
    const paused = await admin.json<StoreRow>(['action', 'stores', id, 'pause', '--json']);
    expect(paused.status).toBe('paused');
  });

  it('a transition the state does not allow is the 409', async () => {
    const result = await admin.wx(['action', 'stores', String(stores.xidan.id), 'pause']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('当前状态不能执行此操作（409）');
  });

  it('an action that asks for confirmation needs --yes outside a terminal', async () => {
    const id = String(stores.xidan.id);
    const refused = await admin.wx(['action', 'stores', id, 'close']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`需要确认：对门店 #${id}「关店」`);
    expect((await admin.json<StoreRow>(['get', 'stores', id, '--json'])).status).toBe('paused');
    const closed = await admin.json<StoreRow>(['action', 'stores', id, 'close', '--yes', '--json']);
    expect(closed.status).toBe('closed');
  });

  it("an action's inputs are validated like a form", async () => {
    const result = await admin.wx(['action', 'users', '1', 'resetPassword', '--password', 'short']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('重置密码的参数有误，未提交');
    expect(result.stderr).toMatch(/新密码（--password）：.*8/);
  });
});
