/**
 * What the registry gives the CLI without a server: `wanxiang resources`, field flags in
 * `--help`, and usage errors (unknown resource, field, value) that exit 2 before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from './support/cli';

const run = (...args: string[]) => runCli(args, { configDir: tempConfigDir() });

describe('wanxiang resources', () => {
  it('lists every resource with its Chinese title and commands', async () => {
    const result = await run('resources');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^stores\s+门店\s+oms\s+list get export create update delete\s+open pause close$/m,
    );
    expect(result.stdout).toMatch(/^orders\s+订单\s+/m);
  });

  it('shows one resource: fields, types, enum values, filters and actions', async () => {
    const result = await run('resources', 'orders');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^status\s+状态\s+枚举\s+= 多值\s+只读；pending_payment=待支付 paid=已支付/m,
    );
    expect(result.stdout).toMatch(/^storeId\s+门店\s+关联 → stores/m);
    expect(result.stdout).toMatch(/^payableFen\s+应付\s+金额（分）\s+= ≥ ≤\s+✓/m);
    expect(result.stdout).toMatch(/^ {2}accept\s+接单$/m);
  });

  it('--json describes the fields for scripts', async () => {
    const result = await run('resources', 'member-levels', '--json');
    expect(result.code).toBe(0);
    const def = JSON.parse(result.stdout) as {
      name: string;
      fields: Array<{ name: string; label: string; type: string; required: boolean; filters: string[] }>;
    };
    expect(def.name).toBe('memberLevels');
    expect(def.fields.find((f) => f.name === 'discountRate')).toMatchObject({
      label: '折扣（%）',
      type: 'integer',
      required: true,
    });
    expect(def.fields.find((f) => f.name === 'createdAt')?.filters).toEqual([
      'createdAt',
      'createdAt_gte',
      'createdAt_lte',
    ]);
  });
});

describe('field flags in --help', () => {
  it('list <resource> --help lists its filters with enum values and range flags', async () => {
    const result = await run('list', 'orders', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('列出订单（orders）');
    expect(result.stdout).toContain('筛选条件：');
    expect(result.stdout).toMatch(/--status <值>\s+状态（pending_payment=待支付 paid=已支付/);
    expect(result.stdout).toMatch(/--status-in <值,…>\s+状态为其中之一/);
    expect(result.stdout).toMatch(/--created-at-gte <时间>\s+创建时间不早于/);
    expect(result.stdout).toMatch(/--payable-fen-lte <分>/);
    expect(result.stdout).toContain('关键字搜索（--q）：订单号、收货地址');
    expect(result.stdout).toMatch(/示例：\n {2}\$ wanxiang list orders/);
  });

  it('create <resource> --help lists the writable fields, required ones marked', async () => {
    const { stdout } = await run('create', 'stores', '--help');
    expect(stdout).toMatch(/--name <值>\s+门店名称（必填）/);
    expect(stdout).toMatch(/--min-order-fen <分>\s+起送价（金额，单位分；默认 0）/);
    expect(stdout).toMatch(/--auto-accept \[是\/否\]/);
    // Read-only fields are not flags.
    expect(stdout).not.toContain('--status');
  });

  it.each([['list'], ['get'], ['create'], ['update'], ['delete'], ['action'], ['export']])(
    '%s --help without a resource explains itself with an example',
    async (command) => {
      const result = await run(command, '--help');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`用法： wanxiang ${command}`);
      expect(result.stdout).toMatch(new RegExp(`示例：\\n {2}\\$ wanxiang ${command} `));
    },
  );

  it('orders export --help shows the shorthand flags', async () => {
    const { stdout } = await run('orders', 'export', '--help');
    for (const flag of [
      '--status <状态,…>',
      '--store-id <ID,…>',
      '--store <门店>',
      '--since <日期>',
      '--until <日期>',
      '--output',
      '--progress',
    ])
      expect(stdout).toContain(flag);
    // The older names still work but are not advertised.
    expect(stdout).not.toContain('--from <日期>');
  });

  it('orders --help shows an export example with the advertised flags, not the hidden old names', async () => {
    const result = await run('orders', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '$ wanxiang orders export --store 朝阳门店 --status paid --since 2024-05-01 --until 2024-05-31 --output 五月已支付.csv',
    );
    expect(result.stdout).not.toMatch(/--from\b|--to\b/);
  });
  for (const [args, text] of [
    [['orders', 'show', '--help'], '$ wanxiang orders show '],
    [['orders', 'refund', '--help'], '--amount <元>'],
    [['printers', 'test', '--help'], '$ wanxiang printers test 3'],
  ] as const)
    it(`${args.join(' ')} explains itself with an example`, async () => {
      expect((await run(...args)).stdout).toContain(text);
    });
});

describe('usage errors, before anything is sent', () => {
  it('an unknown resource names the closest one, exit 2', async () => {
    const result = await run('list', 'oders', '--status', 'paid');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('未知资源 oders（是不是 orders，订单？）');
    expect(result.stderr).toContain('wanxiang resources');
  });

  it('an unknown field flag is an unknown option with a suggestion, exit 2', async () => {
    const result = await run('list', 'orders', '--stauts', 'paid');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('未知选项 --stauts（是不是 --status？）');
    expect(result.stderr).toContain('wanxiang list orders --help');
  });

  it('a field that cannot filter says so', async () => {
    const result = await run('list', 'orders', '--remark', '加辣');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('订单的「备注」（remark）不能用于筛选');
  });

  it('a read-only field cannot be set', async () => {
    const result = await run('update', 'stores', '3', '--status', 'open');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('门店的「状态」（status）是只读字段');
  });

  it("an invalid filter value gets core's message, without asking the server", async () => {
    // Not signed in: reaching the server would be exit 4, so exit 2 shows the check came first.
    const result = await run('list', 'orders', '--status', 'nope', '--sort', 'nothing');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('查询条件有误');
    expect(result.stderr).toContain('状态（--status）：状态必须是其中一个[pending_payment,');
    expect(result.stderr).toContain('--sort：不支持按 nothing 排序');
  });

  it('an unknown action names the closest one', async () => {
    const result = await run('action', 'stores', '3', 'opne');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('门店没有操作 opne（是不是 open？）');
  });

  it('a resource the domain writes cannot be created', async () => {
    const result = await run('create', 'orders', '--remark', 'x');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('订单（orders）不能通过命令新建');
  });

  it('an invalid body fails with every field message and exit 1, before the login is even checked', async () => {
    const result = await run('create', 'memberLevels', '--discount-rate', '10', '--points-threshold', 'many');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('会员等级的内容有误，未提交');
    expect(result.stderr).toContain('等级名称（--name）：请输入等级名称');
    expect(result.stderr).toContain('所需积分（--points-threshold）：所需积分的值无效：many');
    expect(result.stderr).toMatch(/折扣（%）（--discount-rate）：折扣（%）.*50.*100/);
  });

  it('--data that is not a JSON object is a usage error', async () => {
    const result = await run('create', 'stores', '--data', '[1, 2]');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--data 须为 JSON 对象');
  });

  it('delete without --yes outside a terminal is refused before asking the server', async () => {
    // Not signed in: reaching the server would be exit 4.
    const result = await run('delete', 'stores', '3');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('需要确认：删除门店 #3');
    expect(result.stderr).toContain('--yes');
  });
});
