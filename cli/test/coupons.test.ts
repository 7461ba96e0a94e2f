/**
 * `wanxiang coupons issue` against the real built server: a file of user IDs and mobile numbers,
 * standard input, a dry run, the refusals (每人限领, unknown users, unreadable lines) with their
 * exit codes; and a collection action through `wanxiang action` (a batch of exchange codes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { runCli, tempConfigDir } from './support/cli';
import { type SignedIn, startSignedIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let dir: string;
let template: number;
const users: { id: number; phone: string }[] = [];

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return `@${path}`;
};
const couponsOf = (templateId: number) =>
  admin.json<{ userId: number; source: string }[]>([
    'list',
    'userCoupons',
    '--template-id',
    String(templateId),
    '--json',
  ]);

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  dir = mkdtempSync(join(tmpdir(), 'wanxiang-coupons-'));
  const created = await admin.json<{ id: number }>([
    'create',
    'couponTemplates',
    '--name',
    '会员 5 元券',
    '--kind',
    'cash',
    '--value-fen',
    '500',
    '--valid-days',
    '7',
    '--per-user-limit',
    '1',
    '--json',
  ]);
  template = created.id;
  for (const [i, phone] of ['13800000001', '13800000002', '13800000003', '13800000004'].entries()) {
    const user = await admin.json<{ id: number }>([
      'create',
      'users',
      '--username',
      `member${i + 1}`,
      '--password',
      'Member#2025x',
      '--phone',
      phone,
      '--json',
    ]);
    users.push({ id: user.id, phone });
  }
});

afterAll(async () => {
  admin?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

describe('wanxiang coupons issue', () => {
  it('issues one coupon to each user of a file of IDs and mobile numbers', async () => {
    const [a, b, c] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    const list = file('members.txt', `# 五月会员\n${a.id}\n\n+86 138-0000-0002\n${c.phone}\n${a.id}\n`);
    const result = await admin.wx(['coupons', 'issue', '--template', String(template), '--users', list]);
    expect(result.stderr).toBe('✓ 发放成功\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('已向 3 位用户各发放「会员 5 元券」一张（该券累计已发放 3 张）\n');
    const coupons = await couponsOf(template);
    expect(coupons.map((x) => x.userId).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(coupons.every((x) => x.source === 'manual')).toBe(true);
  });

  it('stops at the server’s refusal (每人限领) with exit 1, issuing nothing more', async () => {
    const [a] = users;
    const result = await admin.wx([
      'coupons',
      'issue',
      '--template',
      String(template),
      '--users',
      `${a?.id},${users[3]?.phone}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('每人限领 1 张，该用户已领到上限（member1）');
    expect(await couponsOf(template)).toHaveLength(3);
  });

  it('refuses a list with unknown users before issuing anything (exit 1)', async () => {
    const result = await admin.wx([
      'coupons',
      'issue',
      '--template',
      String(template),
      '--users',
      `${users[3]?.phone},13999999999,999999`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('找不到 2 位用户：#999999、13999999999');
    expect(result.stderr).toContain('未发放任何优惠券');
    expect(await couponsOf(template)).toHaveLength(3);
  });

  it('reads standard input, and a dry run issues nothing', async () => {
    const dry = await admin.wx(
      ['coupons', 'issue', '--template', String(template), '--users', '@-', '--dry-run', '--json'],
      { input: `${users[3]?.phone}\n` },
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      templateId: template,
      name: '会员 5 元券',
      dryRun: true,
      userIds: [users[3]?.id],
    });
    expect(await couponsOf(template)).toHaveLength(3);
    const real = await admin.wx(
      ['coupons', 'issue', '--template', String(template), '--users', '@-', '--json'],
      {
        input: `${users[3]?.phone}\n`,
      },
    );
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ issued: 1, issuedQty: 4, userIds: [users[3]?.id] });
  });

  it('is a usage error (exit 2) for an unreadable line, a missing file or a bad template ID', async () => {
    const bad = await admin.wx([
      'coupons',
      'issue',
      '--template',
      String(template),
      '--users',
      file('bad.txt', `${users[0]?.id}\n张三\n`),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('中有无法识别的用户：第 2 行「张三」');
    const missing = await admin.wx(['coupons', 'issue', '--template', '1', '--users', '@/no/such/file.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('无法读取用户文件 /no/such/file.txt：文件不存在');
    const id = await admin.wx(['coupons', 'issue', '--template', 'abc', '--users', '1']);
    expect(id.code).toBe(2);
    expect(id.stderr).toContain('ID 须为正整数：abc');
  });

  it('--help explains the list file, the exit codes and gives examples', async () => {
    const result = await runCli(['coupons', 'issue', '--help'], { configDir: tempConfigDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('用法： wanxiang coupons issue [选项]');
    expect(result.stdout).toContain('--users <@文件|ID,…>');
    expect(result.stdout).toMatch(/示例：\n {2}\$ wanxiang coupons issue --template 4 --users @会员名单.txt/);
    expect(result.stdout).toContain('退出码：0 全部发放');
  });
});

describe('collection actions and definition rules from the CLI', () => {
  it('generates a batch of exchange codes with `wanxiang action exchangeCodes generate`', async () => {
    const answer = await admin.json<{ batch: string; count: number }>([
      'action',
      'exchangeCodes',
      'generate',
      '--batch',
      '门店台卡',
      '--template-id',
      String(template),
      '--count',
      '3',
    ]);
    expect(answer).toEqual({ batch: '门店台卡', templateId: template, count: 3 });
    const codes = await admin.json<unknown[]>(['list', 'exchangeCodes', '--batch', '门店台卡', '--json']);
    expect(codes).toHaveLength(3);
  });

  it('checks a new row against its definition’s rules before sending (a 代金券 needs 面额)', async () => {
    const result = await admin.wx(['create', 'couponTemplates', '--name', '无面额', '--kind', 'cash']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('代金券须填写面额（大于 0）');
  });
});
