/**
 * The access-log import on each database: hourly counts, gzip told by its bytes, the same file
 * twice counted once (also when sent at the same moment), malformed lines counted with their
 * numbers, a failed import adding nothing, limits and permissions; the imports' history and
 * the hourly figures; cdnDomains' CNAME.
 */
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs } from '../resources/helpers.js';

const H0 = Date.UTC(2025, 0, 1, 2); // 10:00 China time
const H1 = H0 + 3_600_000;

/** `dd/Mon/yyyy:HH:mm:ss +0800` of an instant. */
function timeLocal(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0800`;
}

function line(at: number, status: number, bytes: number, cache?: string): string {
  const base = `198.51.100.9 - - [${timeLocal(at)}] "GET /a.jpg HTTP/1.1" ${status} ${bytes} "-" "Mozilla/5.0"`;
  return cache === undefined ? base : `${base} ${cache}`;
}

// Hour 0: 3 requests (2 hits, 1 miss), hour 1: 2 requests (1 miss, one `-`); 2 malformed lines.
const LOG = [
  line(H0 + 1000, 200, 1000, 'HIT'),
  line(H0 + 2000, 304, 0, 'HIT'),
  'garbage line',
  line(H0 + 3000, 404, 50, 'MISS'),
  '',
  line(H1 + 10, 502, 10, 'MISS'),
  line(H1 + 20, 200, 2000, '-'),
  line(H1 + 30, 200, 5, 'HTI'),
  '',
].join('\n');

describe.each(DB_KINDS)('CDN access-log import on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let domainId: number;

  const importLog = (
    body: Buffer | string,
    id = domainId,
    token = admin.token,
    type = 'application/octet-stream',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/cdnDomains/${id}/import?fileName=access.log`,
      headers: { ...bearer(token), 'content-type': type },
      payload: typeof body === 'string' ? Buffer.from(body) : body,
    });

  async function usage(id = domainId) {
    const rows = await t.app.db
      .selectFrom('cdn_usage' as never)
      .selectAll()
      .where(sql.ref('domain_id'), '=', id)
      .orderBy(sql.ref('hour'))
      .execute();
    return (rows as Record<string, unknown>[]).map((r) => ({
      hour: Number(r.hour),
      requests: Number(r.requests),
      bytes: Number(r.bytes),
      hits: Number(r.hits),
      misses: Number(r.misses),
      hitRatio: r.hit_ratio === null ? null : Number(r.hit_ratio),
      s2: Number(r.status2xx),
      s3: Number(r.status3xx),
      s4: Number(r.status4xx),
      s5: Number(r.status5xx),
    }));
  }

  async function newDomain(domain: string): Promise<number> {
    const res = await admin.post('/api/admin/cdnDomains', { domain, origin: 'origin.example.com' });
    expect(res.status, res.text).toBe(200);
    return res.body.data.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp(kind, {
      config: { cdn: { importMaxBytes: 64 * 1024, cnameBase: 'cdn.test.cn' } },
    });
    admin = await adminApi(t);
    domainId = await newDomain('img.example.com');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a new domain gets its CNAME', async () => {
    const res = await admin.get(`/api/admin/cdnDomains/${domainId}`);
    expect(res.body.data.cname).toBe('img-example-com.cdn.test.cn');
  });

  it('imports a plain log: hours, requests, bytes, hit ratio, status classes; malformed lines counted', async () => {
    const res = await importLog(LOG);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('导入完成：7 行，其中 2 行格式错误未计入');
    expect(body.data.alreadyImported).toBe(false);
    expect(body.data.import).toMatchObject({
      domainId,
      domain: 'img.example.com',
      fileName: 'access.log',
      lines: 7,
      malformed: 2,
      requests: 5,
      bytes: 3060,
      hours: 2,
      hasCache: true,
      firstHour: new Date(H0).toISOString(),
      lastHour: new Date(H1).toISOString(),
    });
    expect(body.data.import.samples).toEqual([
      { line: 3, reason: '不是 nginx combined 格式', text: 'garbage line' },
      { line: 8, reason: '缓存状态无效', text: line(H1 + 30, 200, 5, 'HTI') },
    ]);
    expect(await usage()).toEqual([
      { hour: H0, requests: 3, bytes: 1050, hits: 2, misses: 1, hitRatio: 2 / 3, s2: 1, s3: 1, s4: 1, s5: 0 },
      { hour: H1, requests: 2, bytes: 2010, hits: 0, misses: 1, hitRatio: 0, s2: 1, s3: 0, s4: 0, s5: 1 },
    ]);
  });

  it('the same file again — plain or gzipped — is not counted twice', async () => {
    const before = await usage();
    const again = await importLog(LOG);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.alreadyImported).toBe(true);
    expect(again.json().message).toMatch(/^该日志文件已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 导入过，未重复计数$/);
    const gz = await importLog(gzipSync(Buffer.from(LOG)), domainId, admin.token, 'application/gzip');
    expect(gz.json().data.alreadyImported).toBe(true);
    expect(await usage()).toEqual(before);
  });

  it('a gzipped new file adds to the hours it touches; without a cache field the ratio stays unknown', async () => {
    const other = await newDomain('static.example.com');
    const log = [line(H0 + 5, 200, 100), line(H0 + 6, 200, 100)].join('\n');
    const res = await importLog(gzipSync(Buffer.from(log)), other);
    expect(res.json().data.import).toMatchObject({
      lines: 2,
      malformed: 0,
      requests: 2,
      bytes: 200,
      hasCache: false,
    });
    expect(await usage(other)).toEqual([
      { hour: H0, requests: 2, bytes: 200, hits: 0, misses: 0, hitRatio: null, s2: 2, s3: 0, s4: 0, s5: 0 },
    ]);
    // A second file of the same hour with cache verdicts: counts add up, the ratio is recomputed.
    const more = await importLog(
      [
        line(H0 + 7, 200, 1, 'HIT'),
        line(H0 + 8, 200, 1, 'MISS'),
        line(H0 + 9, 200, 1, 'HIT'),
        line(H0 + 10, 200, 1, 'HIT'),
      ].join('\n'),
      other,
    );
    expect(more.statusCode).toBe(200);
    expect(await usage(other)).toEqual([
      { hour: H0, requests: 6, bytes: 204, hits: 3, misses: 1, hitRatio: 0.75, s2: 6, s3: 0, s4: 0, s5: 0 },
    ]);
  });

  it('the same file sent twice at once is counted once', async () => {
    const other = await newDomain('race.example.com');
    const log = [line(H0 + 11, 200, 7, 'HIT'), line(H1 + 11, 200, 7, 'MISS')].join('\n');
    const answers = await Promise.all([importLog(log, other), importLog(log, other), importLog(log, other)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().data.alreadyImported === false)).toHaveLength(1);
    expect((await usage(other)).map((u) => u.requests)).toEqual([1, 1]);
  });

  it('a failed import adds nothing: no usage, no import record', async () => {
    const other = await newDomain('fail.example.com');
    // The database refuses the second hour's row: the first hour's upsert must roll back too.
    if (kind === 'sqlite') {
      await sql
        .raw(
          `create trigger cdn_fail before insert on cdn_usage when new.hour = ${H1} and new.domain_id = ${other} begin select raise(abort, 'refused'); end`,
        )
        .execute(t.app.db);
    } else {
      await sql
        .raw(
          `create function cdn_fail() returns trigger language plpgsql as $$ begin if new.hour = ${H1} and new.domain_id = ${other} then raise exception 'refused'; end if; return new; end $$;
           create trigger cdn_fail before insert on cdn_usage for each row execute function cdn_fail()`,
        )
        .execute(t.app.db);
    }
    const res = await importLog([line(H0 + 1, 200, 1), line(H1 + 1, 200, 1)].join('\n'), other);
    expect(res.statusCode).toBe(500);
    expect(await usage(other)).toEqual([]);
    const imports = await admin.get(`/api/admin/cdnImports?domainId=${other}`);
    expect(imports.body.data).toEqual([]);
    await sql
      .raw(kind === 'sqlite' ? 'drop trigger cdn_fail' : 'drop trigger cdn_fail on cdn_usage')
      .execute(t.app.db);
  });

  it('multipart upload (the admin button) works the same', async () => {
    const other = await newDomain('upload.example.com');
    const boundary = '----wanxiang';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.log.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
      ),
      gzipSync(Buffer.from(line(H0 + 3, 200, 42, 'HIT'))),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/cdnDomains/${other}/import`,
      headers: { ...bearer(admin.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.import).toMatchObject({ fileName: 'a.log.gz', lines: 1, requests: 1, bytes: 42 });
  });

  it('bad input: Chinese messages, 4xx, nothing stored', async () => {
    const other = await newDomain('bad.example.com');
    const empty = await importLog('\n\n', other);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('日志文件是空的');
    const corrupt = await importLog(gzipSync(Buffer.from(LOG)).subarray(0, 30), other);
    expect(corrupt.statusCode).toBe(422);
    expect(corrupt.json().message).toBe('gzip 压缩文件已损坏或不完整');
    const big = await importLog(`${line(H0, 200, 1)}\n`.repeat(1000), other);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('日志文件过大：解压后最多 0 MB，请拆分后分别导入');
    const missing = await importLog(LOG, 999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('CDN 域名不存在或已删除');
    const json = await admin.post(`/api/admin/cdnDomains/${other}/import`, { log: 'x' });
    expect(json.status).toBe(422);
    expect(await usage(other)).toEqual([]);
    expect((await admin.get(`/api/admin/cdnImports?domainId=${other}`)).body.data).toEqual([]);
  });

  it('permission: without cloud:write the import is refused', async () => {
    const guest = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    const res = await importLog(LOG.replace('garbage', 'junk'), domainId, guest);
    expect(res.statusCode).toBe(403);
    expect((await apiAs(t.app, guest).get('/api/admin/cdnImports')).status).toBe(403);
  });

  it('history and hourly figures', async () => {
    const list = await admin.get(`/api/admin/cdnImports?domainId=${domainId}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ domain: 'img.example.com', lines: 7, malformed: 2 });
    const from = new Date(H0).toISOString();
    const to = new Date(H1 + 2 * 3_600_000).toISOString();
    const series = await admin.get(`/api/admin/cdnUsage/hourly?domainIds=${domainId}&from=${from}&to=${to}`);
    expect(series.status, series.text).toBe(200);
    expect(series.body.data.hours.map((h: { requests: number }) => h.requests)).toEqual([3, 2, 0]);
    expect(series.body.data.hours[2].hitRatio).toBeNull();
    expect(series.body.data.totals).toMatchObject({
      requests: 5,
      bytes: 3060,
      hits: 2,
      misses: 2,
      hitRatio: 0.5,
    });
    const bad = await admin.get(`/api/admin/cdnUsage/hourly?from=${to}&to=${from}`);
    expect(bad.status).toBe(422);
  });
});
