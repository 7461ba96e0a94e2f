/**
 * `wanxiang jobs …` against the real built server (its scheduler off, so only `jobs run` checks
 * and the counts below are exact): a job on a local HTTP server is checked up, the server is
 * stopped and the job checks down with exit 1, then the list, the detail, pause/resume and the
 * history export show what happened.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer } from '../../testing/built-server';
import { sinceValue } from '../src/commands/jobs';
import { parseCsv, type SignedIn, signIn } from './support/signed-in';

let server: BuiltServer;
let admin: SignedIn;
let target: http.Server;
let port: number;
let jobId: number;

function listen(at = 0): Promise<http.Server> {
  const s = http.createServer((_req, res) => res.end('万象 OK'));
  return new Promise((resolve) => s.listen(at, '127.0.0.1', () => resolve(s)));
}

beforeAll(async () => {
  server = await startBuiltServer({ SCHEDULER: 'off' });
  admin = await signIn(server, 'admin');
  target = await listen();
  port = (target.address() as AddressInfo).port;
  const job = await admin.json<{ id: number }>([
    'create',
    'monitorJobs',
    '--name',
    '本机服务',
    '--url',
    `http://127.0.0.1:${port}/`,
    '--interval-s',
    '60',
    '--json',
  ]);
  jobId = job.id;
});

afterAll(async () => {
  admin?.remove();
  target?.close();
  await server?.stop();
});

describe('wanxiang jobs', () => {
  it('checks a job now: exit 0 when up, exit 1 with the reason once its server is gone', async () => {
    const up = await admin.wx(['jobs', 'run', String(jobId)]);
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/^#\d+ 本机服务 {2}正常：/);
    await new Promise<void>((resolve) => target.close(() => resolve()));
    const down = await admin.wx(['jobs', 'run', String(jobId)]);
    expect(down.code).toBe(1);
    expect(down.stdout).toContain('故障：连接被拒绝');
    // --json still exits 1 (the job is down); the answer is on stdout for the script.
    const raw = await admin.wx(['jobs', 'run', String(jobId), '--json']);
    expect(raw.code).toBe(1);
    expect(JSON.parse(raw.stdout).run.status).toBe('down');
  });

  it('lists by status and shows a job with its uptime and latest checks', async () => {
    const list = await admin.json<{ id: number; status: string }[]>([
      'jobs',
      'list',
      '--status',
      'down',
      '--json',
    ]);
    expect(list.map((j) => j.id)).toContain(jobId);
    expect(await admin.json<unknown[]>(['jobs', 'list', '--status', 'up', '--json'])).toEqual([]);
    const shown = await admin.ok(['jobs', 'show', String(jobId)]);
    expect(shown).toContain(`监控任务 #${jobId}  本机服务  故障`);
    // One up and two down checks in the last 24 hours.
    expect(shown).toContain('可用率：24 小时 33.33%');
    expect(shown).toContain('连接被拒绝');
    expect(shown).toContain('● 状态在这一次检查时翻转');
    const json = await admin.json<{ uptime: { h24: number }; runs: unknown[] }>([
      'jobs',
      'show',
      String(jobId),
      '--runs',
      '2',
      '--json',
    ]);
    expect(json.uptime.h24).toBe(33.33);
    expect(json.runs).toHaveLength(2);
  });

  it('exports the history as CSV, newest first, and filters it by result', async () => {
    const csv = parseCsv(
      (await admin.ok(['jobs', 'history', String(jobId), '--since', '24h'])).replace(/^\uFEFF/, ''),
    );
    expect(csv).toHaveLength(4);
    const resultColumn = (csv[0] as string[]).indexOf('结果');
    expect(csv.slice(1).map((r) => r[resultColumn])).toEqual(['故障', '故障', '正常']);
    const down = await admin.ok([
      'jobs',
      'history',
      String(jobId),
      '--since',
      '7d',
      '--status',
      'down',
      '--format',
      'ndjson',
    ]);
    expect(down.trim().split('\n')).toHaveLength(2);
    const future = await admin.ok(['jobs', 'history', String(jobId), '--since', '2999-01-01']);
    expect(parseCsv(future.replace(/^\uFEFF/, ''))).toHaveLength(1);
  });

  it('pauses and resumes; the paused job comes back up once its server does', async () => {
    expect(await admin.ok(['jobs', 'pause', String(jobId)])).toContain('已暂停');
    target = await listen(port);
    expect(await admin.ok(['jobs', 'resume', String(jobId)])).toContain('待确认');
    expect((await admin.wx(['jobs', 'run', String(jobId)])).code).toBe(0);
  });

  it('refuses bad arguments as usage errors', async () => {
    expect((await admin.wx(['jobs', 'show', String(jobId), '--runs', '0'])).code).toBe(2);
    expect((await admin.wx(['jobs', 'list', '--status', 'nope'])).code).toBe(2);
    const missing = await admin.wx(['jobs', 'run', '999999']);
    expect(missing.code).toBe(1);
  });
});

describe('sinceValue', () => {
  it('reads 24h, 7d and 30m back from now, and passes dates through', () => {
    const now = Date.UTC(2025, 0, 6, 12);
    expect(sinceValue('24h', now)).toBe('2025-01-05T12:00:00.000Z');
    expect(sinceValue('7d', now)).toBe('2024-12-30T12:00:00.000Z');
    expect(sinceValue('30m', now)).toBe('2025-01-06T11:30:00.000Z');
    expect(sinceValue('2024-05-01', now)).toBe('2024-05-01');
  });
});
