/**
 * `wanxiang keys …` against the real built server: a key created for a user by username with
 * scopes by API code is printed once, alone on stdout; lists show the prefix only (table, JSON,
 * CSV); rotate prints a new key and the prefix changes; revoke ends it; bad names are usage
 * errors in Chinese.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer } from '../../testing/built-server';
import { parseCsv, type SignedIn, signIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
const KEY = /^wx_[A-Za-z0-9]{40}$/;

beforeAll(async () => {
  server = await startBuiltServer({ SCHEDULER: 'off' });
  admin = await signIn(server, 'admin');
  await admin.ok([
    'create',
    'marketApis',
    '--code',
    'cli-palette',
    '--name',
    '配色板',
    '--handler',
    'palette',
    '--rate-limit-per-min',
    '60',
  ]);
});

afterAll(async () => {
  admin?.remove();
  await server?.stop();
});

describe('wanxiang keys', () => {
  let id: number;
  let first: string;

  it('creates a key for a user by name, scoped by API code, printed once alone on stdout', async () => {
    const made = await admin.wx([
      'keys',
      'create',
      '--user',
      'guest',
      '--name',
      '脚本',
      '--scopes',
      'cli-palette',
    ]);
    expect(made.code, made.stderr).toBe(0);
    first = made.stdout.trim();
    expect(first).toMatch(KEY);
    expect(made.stderr).toContain('完整 Key 只显示这一次');
    const listed = await admin.json<{ id: number; prefix: string; scopes: number[]; status: string }[]>([
      'keys',
      'list',
      '--user',
      'guest',
      '--json',
    ]);
    expect(listed).toHaveLength(1);
    id = listed[0]?.id as number;
    expect(listed[0]).toMatchObject({ prefix: first.slice(0, 11), status: 'active' });
    expect(listed[0]?.scopes).toHaveLength(1);
    const table = await admin.ok(['keys', 'list', '--user', 'guest']);
    expect(table).toContain('脚本');
    expect(table).toContain(first.slice(0, 11));
    const csv = parseCsv(await admin.ok(['keys', 'list', '--format', 'csv']));
    expect(csv[0]).toContain('prefix');
    for (const text of [JSON.stringify(listed), table, JSON.stringify(csv)])
      expect(text).not.toContain(first);
  });

  it('prints the whole answer with --json', async () => {
    const made = await admin.json<{ key: string; userId: number; name: string }>([
      'keys',
      'create',
      '--user',
      'editor',
      '--name',
      'CI',
      '--json',
    ]);
    expect(made.key).toMatch(KEY);
    expect(made.name).toBe('CI');
  });

  it('rotates (a new key, a new prefix) and revokes; a revoked key cannot be rotated', async () => {
    const rotated = await admin.wx(['keys', 'rotate', String(id)]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const next = rotated.stdout.trim();
    expect(next).toMatch(KEY);
    expect(next).not.toBe(first);
    expect(rotated.stderr).toContain('已轮换');
    const [row] = await admin.json<{ prefix: string }[]>(['keys', 'list', '--user', 'guest', '--json']);
    expect(row?.prefix).toBe(next.slice(0, 11));

    const revoked = await admin.json<{ status: string }>(['keys', 'revoke', String(id), '--json']);
    expect(revoked.status).toBe('revoked');
    const again = await admin.wx(['keys', 'rotate', String(id)]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Key 已吊销，不能轮换');
    expect(again.stdout).toBe('');
    expect(
      await admin.json<unknown[]>(['keys', 'list', '--user', 'guest', '--status', 'active', '--json']),
    ).toEqual([]);
  });

  it('refuses unknown users and API codes as usage errors', async () => {
    const nobody = await admin.wx(['keys', 'create', '--user', 'nobody-here', '--name', 'x']);
    expect([nobody.code, nobody.stderr]).toEqual([
      2,
      expect.stringContaining('没有用户名为 nobody-here 的用户'),
    ]);
    const noApi = await admin.wx([
      'keys',
      'create',
      '--user',
      'guest',
      '--name',
      'x',
      '--scopes',
      'cli-palette,nope',
    ]);
    expect([noApi.code, noApi.stderr]).toEqual([2, expect.stringContaining('没有这些 API：nope')]);
    const badId = await admin.wx(['keys', 'revoke', 'abc']);
    expect(badId.code).toBe(2);
  });
});
