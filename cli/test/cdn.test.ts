/**
 * `wanxiang cdn import` against the built server: a plain and a gzipped log streamed in, the
 * counts printed, the same file again "already imported" (exit 0, nothing added), an unknown
 * domain and an unreadable file refused with their exit codes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../testing/built-server';
import { type SignedIn, startSignedIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let dir: string;

const line = (time: string, status: number, bytes: number, cache: string) =>
  `192.0.2.1 - - [${time}] "GET /a.css HTTP/1.1" ${status} ${bytes} "-" "curl/8.0" ${cache}`;

beforeAll(async () => {
  ({ server, admin } = await startSignedIn());
  dir = mkdtempSync(join(tmpdir(), 'wanxiang-cdn-'));
  await admin.ok([
    'create',
    'cdnDomains',
    '--domain',
    'static.example.com',
    '--origin',
    'origin.example.com',
  ]);
  const log = [
    line('01/Mar/2025:10:00:01 +0800', 200, 1024, 'HIT'),
    line('01/Mar/2025:10:30:00 +0800', 200, 1024, 'MISS'),
    'broken',
    line('01/Mar/2025:11:00:00 +0800', 500, 0, 'MISS'),
  ].join('\n');
  writeFileSync(join(dir, 'access.log'), `${log}\n`);
  writeFileSync(
    join(dir, 'other.log.gz'),
    gzipSync(`${line('02/Mar/2025:09:00:00 +0800', 200, 10, 'HIT')}\n`),
  );
});

afterAll(async () => {
  admin?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

describe('wanxiang cdn import', () => {
  it('streams a log, prints the counts; the same file again is already imported', async () => {
    const first = await admin.wx([
      'cdn',
      'import',
      join(dir, 'access.log'),
      '--domain',
      'static.example.com',
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n').slice(0, 5)).toEqual([
      '✓ 导入完成：4 行，其中 1 行格式错误未计入',
      '行数：4    格式错误：1    小时数：2',
      '请求数：3    流量：2 KB（2048 字节）    命中率：已计算',
      '时段：2025-03-01 10:00 — 2025-03-01 11:00',
      '',
    ]);
    expect(first.stdout).toContain('第 3 行 不是 nginx combined 格式：broken');

    const again = await admin.wx([
      'cdn',
      'import',
      join(dir, 'access.log'),
      '--domain',
      'static.example.com',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n')[0]).toMatch(/^! 该日志文件已于 .* 导入过，未重复计数$/);

    const gz = await admin.json<{ alreadyImported: boolean; import: { requests: number; bytes: number } }>([
      'cdn',
      'import',
      join(dir, 'other.log.gz'),
      '--domain',
      'static.example.com',
      '--json',
    ]);
    expect(gz).toMatchObject({ alreadyImported: false, import: { requests: 1, bytes: 10 } });
    // The usage rows: 3 hours, 4 requests in all (the repeat added nothing).
    const rows = await admin.json<{ requests: number }[]>(['list', 'cdnUsage', '--json']);
    expect(rows.map((r) => r.requests).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('failures: unknown domain exit 1, unreadable file exit 2', async () => {
    const unknown = await admin.wx([
      'cdn',
      'import',
      join(dir, 'access.log'),
      '--domain',
      'nope.example.com',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('没有这个 CDN 域名：nope.example.com');
    const missing = await admin.wx([
      'cdn',
      'import',
      join(dir, 'missing.log'),
      '--domain',
      'static.example.com',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('无法读取日志文件');
  });
});
