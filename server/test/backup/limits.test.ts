/**
 * The restore's size limits (BACKUP_RESTORE_MAX_MB): an archive over the limit is 413, and a small
 * archive that unpacks to more than 16 times the limit (a gzip bomb) is 422 — both in Chinese,
 * and nothing changed. On PostgreSQL, a missing pg_dump or one older than the server is a Chinese
 * 503 that says which.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/auth.js';
import { anyDb } from '../orders/fixture.js';
import { adminApi } from '../resources/helpers.js';
import { rowCounts, writeMembers } from './helpers.js';

const LIMIT = 64 * 1024;

describe.each(DB_KINDS)('restore limits on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const tables = ['users', 'audit_logs'];

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { backup: { restoreMaxBytes: LIMIT } } });
    token = (await adminApi(t)).token;
  });
  afterAll(async () => t?.close());

  const restore = (payload: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/restore',
      headers: { ...bearer(token), 'content-type': 'application/gzip' },
      payload,
    });

  it('refuses an archive over the limit with 413', async () => {
    const before = await rowCounts(anyDb(t), tables);
    const res = await restore(Buffer.alloc(LIMIT + 1, 7));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('备份文件超过上限');
    expect(await rowCounts(anyDb(t), tables)).toEqual(before);
  });

  it('refuses an archive that unpacks past 16 times the limit with 422', async () => {
    const before = await rowCounts(anyDb(t), tables);
    const bomb = await writeMembers([{ name: 'database.sqlite', data: Buffer.alloc(LIMIT * 16 + 1024) }]);
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await restore(bomb);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain('解压后超过上限');
    expect(await rowCounts(anyDb(t), tables)).toEqual(before);
  });

  it.runIf(kind === 'postgres')(
    'answers 503 in Chinese when pg_dump is missing or older than the server',
    async () => {
      const bin = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-pgbin-'));
      const saved = process.env.PATH;
      const backup = () => t.app.inject({ method: 'POST', url: '/api/admin/backup', headers: bearer(token) });
      try {
        process.env.PATH = bin;
        const missing = await backup();
        expect(missing.statusCode).toBe(503);
        expect(missing.json().message).toContain('服务器上找不到 pg_dump');
        writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n');
        chmodSync(path.join(bin, 'pg_dump'), 0o755);
        const old = await backup();
        expect(old.statusCode).toBe(503);
        expect(old.json().message).toMatch(/pg_dump 的版本（9）比 PostgreSQL 服务（\d+）旧/);
      } finally {
        process.env.PATH = saved;
        rmSync(bin, { recursive: true, force: true });
      }
    },
  );
});
