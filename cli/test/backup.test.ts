/**
 * `wanxiang backup` and `wanxiang restore` against the built server: a store made, backed up to
 * a file (path and size printed), renamed and a second store added, restored with --yes — the
 * store has its old name and the second store is gone. Without --yes outside a terminal the
 * restore asks for confirmation and changes nothing (exit 2); an unreadable file is exit 2.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { type SignedIn, startSignedIn } from './support/signed-in';

interface StoreRow {
  id: number;
  name: string;
}

let server: BuiltServer;
let admin: SignedIn;
let dir: string;

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  dir = mkdtempSync(join(tmpdir(), 'wanxiang-backup-'));
});

afterAll(async () => {
  admin?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

const store = (name: string) =>
  admin.json<StoreRow>([
    'create',
    'stores',
    '--name',
    name,
    '--phone',
    '010-6500 1234',
    '--address',
    `北京市${name}大街 1 号`,
    '--json',
  ]);

describe('wanxiang backup / restore', () => {
  it('saves a backup and restores it: the data is as it was at the backup', async () => {
    const kept = await store('备份前的店');
    const file = join(dir, 'nightly.tar.gz');
    const saved = await admin.wx(['backup', '-o', file]);
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain(`✓ 已保存备份 ${file}`);
    expect(statSync(file).size).toBeGreaterThan(1000);
    expect(existsSync(`${file}.part`)).toBe(false);

    await admin.ok(['update', 'stores', String(kept.id), '--name', '备份后改的名', '--json']);
    const later = await store('备份后的店');

    const unconfirmed = await admin.wx(['restore', file]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('需要确认');
    expect((await admin.json<StoreRow>(['get', 'stores', String(kept.id), '--json'])).name).toBe(
      '备份后改的名',
    );

    const restored = await admin.wx(['restore', file, '--yes']);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^✓ 已恢复到 /);
    expect((await admin.json<StoreRow>(['get', 'stores', String(kept.id), '--json'])).name).toBe(
      '备份前的店',
    );
    const gone = await admin.wx(['get', 'stores', String(later.id), '--json']);
    expect(gone.code).toBe(1);
  });

  it('refuses a file it cannot read, and one that is not a backup', async () => {
    const missing = await admin.wx(['restore', join(dir, 'nope.tar.gz'), '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('无法读取备份文件');
    const junk = join(dir, 'junk.tar.gz');
    writeFileSync(junk, 'not a backup');
    const refused = await admin.wx(['restore', junk, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('未作任何修改');
  });
});
