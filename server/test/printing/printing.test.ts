/**
 * Printing end to end, on both databases: the admin API (`printers/{id}/testPrint`,
 * `orders/{id}/print`) answering the print job, a local TCP listener standing in for the
 * printer and checking what it receives, failures after the tries (a refused connection, a
 * printer that never answers — short timeouts from the config, no sleeps), the job list, the
 * outbound policy for a user without the monitoring permission, and the automatic print on
 * acceptance driven directly (`printOrderOnAccept` + `sendWritten` / `sendQueued`).
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { printOrderOnAccept, sendQueued, sendWritten } from '../../src/domain/printing/index.js';
import { jobOf, moveJob } from '../../src/domain/printing/jobs.js';
import { HELD_JOB_ERROR, LATE_JOB_ERROR, QUEUED_GRACE_MS } from '../../src/domain/printing/service.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import {
  createTestDatabase,
  DB_KINDS,
  DEMO_PASSWORD,
  startTestApp,
  type TestApp,
  TestClock,
} from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs, userId } from '../resources/helpers.js';
import {
  closedPort,
  columnsOf,
  count,
  ESC,
  type FakePrinter,
  GS,
  printedLines,
  qrCodes,
  startPrinter,
} from './listener.js';

/** The receipts of an accepted order queued (no print service given: none is held), by id. */
const queueReceipts = async (...args: Parameters<typeof printOrderOnAccept>) =>
  (await printOrderOnAccept(...args)).jobs.map((job) => job.id);

const PRINTING = { connectTimeoutMs: 2000, writeTimeoutMs: 600, attempts: 3, retryDelayMs: 0 };

const ITEMS = [
  { goodsId: 1, name: '宫保鸡丁', sku: '大份', qty: 2, unitPriceFen: 2800 },
  { goodsId: 2, name: '酸梅汤', sku: null, qty: 1, unitPriceFen: 600 },
];

/** Stores and orders written through the engine's bulk insert (the order machine is not the subject here). */
async function seed(t: TestApp) {
  const [storeA, storeB] = (await t.app.resources.insertRows(getResource('stores'), [
    { name: '川味小馆', phone: '010-12345678', address: '北京市朝阳区建国路 1 号', status: 'open' },
    { name: '无打印机门店', phone: '010-87654321', address: '北京市海淀区中关村大街 2 号', status: 'open' },
  ])) as [number, number];
  const customer = await userId(t, 'guest');
  const order = (orderNo: string, storeId: number, status: string, extra: Record<string, unknown> = {}) => ({
    orderNo,
    storeId,
    userId: customer,
    items: ITEMS,
    goodsFen: 6200,
    packingFen: 200,
    deliveryFen: 500,
    discountFen: 1000,
    couponFen: 300,
    payableFen: 5600,
    paidFen: status === 'pending_payment' ? 0 : 5600,
    payMethod: 'wechat',
    fulfilment: 'delivery',
    address: '北京市朝阳区望京街 9 号 3 单元 401',
    remark: '少放辣，不要香菜',
    status,
    paidAt: status === 'pending_payment' ? null : t.clock.now() - 60_000,
    ...extra,
  });
  const [paid, unpaid, elsewhere, accepted] = (await t.app.resources.insertRows(getResource('orders'), [
    order('NO202501010001', storeA, 'paid'),
    order('NO202501010002', storeA, 'pending_payment'),
    order('NO202501010003', storeB, 'paid'),
    order('NO202501010004', storeA, 'accepted', { fulfilment: 'pickup', address: null, remark: null }),
  ])) as [number, number, number, number];
  return { storeA, storeB, paid, unpaid, elsewhere, accepted };
}

/** The seed's stores and orders, and a printer of store A at `port` that prints on acceptance. */
async function seedAutoPrinter(t: TestApp, name: string, port: number) {
  const api = await adminApi(t);
  const ids = await seed(t);
  const created = await api.post('/api/admin/printers', {
    storeId: ids.storeA,
    name,
    host: '127.0.0.1',
    port,
    autoPrintOnAccept: true,
  });
  expect(created.status, created.text).toBe(200);
  return { ...ids, api, db: t.app.db as unknown as AnyDb };
}

describe.each(DB_KINDS)('printing on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let operator: Api;
  let printer: FakePrinter;
  let ids: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { printing: PRINTING } });
    // The start's pick-up of left jobs is over before any job of these tests exists.
    await t.app.printing.idle();
    api = await adminApi(t);
    operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    printer = await startPrinter();
    ids = await seed(t);
  });
  afterAll(async () => {
    await printer?.close();
    await t?.close();
  });

  async function addPrinter(fields: Record<string, unknown> = {}, as: Api = api) {
    const res = await as.post('/api/admin/printers', {
      storeId: ids.storeA,
      name: '前台小票机',
      host: '127.0.0.1',
      port: printer.port,
      paperWidth: '58',
      copies: 1,
      autoPrintOnAccept: false,
      ...fields,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: number; addressSetById: number | null };
  }

  const printOrder = (orderId: number, body: Record<string, unknown>, as: Api = api) =>
    as.post(`/api/admin/orders/${orderId}/print`, body);
  const testPrint = (printerId: number, as: Api = api) =>
    as.post(`/api/admin/printers/${printerId}/testPrint`);

  it('test print: the listener gets the test page, the admin sees 打印成功 and the job, the printer is online', async () => {
    const { id } = await addPrinter({ name: '测试打印机' });
    const before = printer.jobs.length;
    const res = await testPrint(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('打印成功');
    expect(res.body.data).toMatchObject({
      printerId: id,
      orderId: null,
      kind: 'test',
      status: 'done',
      error: null,
    });
    expect(res.body.data.attempts).toBe(1);
    const [bytes] = (await printer.received(before + 1)).slice(before) as [Buffer];
    expect(res.body.data.bytes).toBe(bytes.length);
    const text = printedLines(bytes).join('\n');
    expect(text).toContain('打印机：测试打印机');
    expect(text).toContain('纸宽：58 mm（每行 32 列）');
    // The test clock's 08:00 UTC is 16:00 China time.
    expect(text).toContain('时间：2025-01-01 16:00');
    expect(qrCodes(bytes)).toEqual([`TEST-${res.body.data.id}`]);
    const row = (await api.get(`/api/admin/printers/${id}`)).body.data;
    expect(row.status).toBe('online');
    expect(row.lastSeenAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it.each([
    ['58', 32],
    ['80', 48],
  ] as const)(
    'prints an order on %s mm paper: GBK text in %i columns, init, QR of the order number, cut',
    async (paper, columns) => {
      const { id } = await addPrinter({ name: `${paper}mm 打印机`, paperWidth: paper });
      const before = printer.jobs.length;
      const res = await printOrder(ids.paid, { printerId: id });
      expect(res.status, res.text).toBe(200);
      expect(res.body.message).toBe('打印成功');
      expect(res.body.data).toMatchObject({
        printerId: id,
        orderId: ids.paid,
        kind: 'receipt',
        status: 'done',
      });
      const [bytes] = (await printer.received(before + 1)).slice(before) as [Buffer];
      expect([...bytes.subarray(0, 2)]).toEqual([ESC, 0x40]);
      expect(count(bytes, [GS, 0x56])).toBe(1);
      expect(qrCodes(bytes)).toEqual(['NO202501010001']);
      const lines = printedLines(bytes);
      const text = lines.join('\n');
      for (const expected of [
        '川味小馆',
        '【外卖配送】',
        '订单号：NO202501010001',
        '宫保鸡丁（大份）',
        '酸梅汤',
        '￥56.00',
        '-￥10.00',
        '-￥3.00',
        '备注：少放辣，不要香菜',
      ])
        expect(text).toContain(expected);
      // The address wraps under its label on narrow paper.
      expect(text.replace(/\n {6}/g, ' ')).toContain('地址：北京市朝阳区望京街 9 号 3 单元 401');
      expect(text).toMatch(/实付 +￥56\.00/);
      for (const line of lines) expect(columnsOf(line), line).toBeLessThanOrEqual(columns);
      for (const start of ['商品 ', '宫保鸡丁', '酸梅汤', '商品金额', '满减', '---'])
        expect(columnsOf(lines.find((l) => l.startsWith(start)) as string), start).toBe(columns);
    },
  );

  it('prints the printer’s copies in one job, each cut', async () => {
    const { id } = await addPrinter({ name: '后厨打印机', copies: 2, paperWidth: '80' });
    const before = printer.jobs.length;
    const res = await printOrder(ids.accepted, { printerId: id });
    expect(res.body.data).toMatchObject({ status: 'done', copies: 2 });
    const [bytes] = (await printer.received(before + 1)).slice(before) as [Buffer];
    expect(count(bytes, [ESC, 0x40])).toBe(2);
    expect(count(bytes, [GS, 0x56])).toBe(2);
    expect(qrCodes(bytes)).toEqual(['NO202501010004', 'NO202501010004']);
    expect(printedLines(bytes).join('\n')).toContain('【到店自取】');
  });

  it('a refused connection: failed after the tries, with the Chinese reason as the answer’s message; the printer is in error', async () => {
    const port = await closedPort();
    const { id } = await addPrinter({ name: '关机的打印机', port });
    const res = await testPrint(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', attempts: 3, printedAt: null });
    expect(res.body.data.error).toBe(`打印机拒绝连接（127.0.0.1:${port}），请检查端口是否为 9100`);
    expect(res.body.message).toBe(res.body.data.error);
    const row = (await api.get(`/api/admin/printers/${id}`)).body.data;
    expect(row.status).toBe('error');
    expect(row.lastSeenAt).toBeNull();
  });

  it('a printer that accepts and never answers: failed after three tries within the write timeout', async () => {
    const silent = await startPrinter('silent');
    try {
      const { id } = await addPrinter({ name: '卡住的打印机', port: silent.port });
      const res = await printOrder(ids.paid, { printerId: id });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'failed', attempts: 3 });
      expect(res.body.data.error).toBe(
        `打印机未响应（127.0.0.1:${silent.port}）：数据已发出，打印机未在规定时间内确认接收`,
      );
      expect(silent.connections()).toBe(3);
      // It was reached, so it was seen; it is in error all the same.
      const row = (await api.get(`/api/admin/printers/${id}`)).body.data;
      expect(row).toMatchObject({ status: 'error' });
      expect(row.lastSeenAt).not.toBeNull();
    } finally {
      await silent.close();
    }
  });

  it('refuses a print with no printer to print on, a printer of another store, an unpaid order — writing nothing', async () => {
    const jobs = async () => (await api.get('/api/admin/printJobs')).body.data.page.total as number;
    const before = await jobs();
    const none = await printOrder(ids.elsewhere, {});
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('门店「无打印机门店」还没有小票打印机，请先在“小票打印机”中添加');
    const { id } = await addPrinter({ name: '别家的打印机' });
    const other = await printOrder(ids.elsewhere, { printerId: id });
    expect(other.status).toBe(422);
    expect(other.body.data.fields).toEqual({ printerId: '所选打印机不属于该订单的门店' });
    const missing = await printOrder(ids.paid, { printerId: 999_999 });
    expect(missing.status).toBe(422);
    expect(missing.body.data.fields).toEqual({ printerId: '所选的打印机不存在' });
    const unpaid = await printOrder(ids.unpaid, {});
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.message).toBe('当前状态不能执行此操作');
    expect(await jobs()).toBe(before);
  });

  it('prints on the store’s first printer when none is chosen', async () => {
    const first = (await api.get(`/api/admin/printers?storeId=${ids.storeA}&sort=id`)).body.data.results[0];
    const res = await printOrder(ids.paid, {});
    expect(res.body.data).toMatchObject({ printerId: first.id, orderId: ids.paid });
  });

  it('lists the print jobs read-only, by printer and status, newest first', async () => {
    const { id } = await addPrinter({ name: '记录打印机' });
    await testPrint(id);
    await printOrder(ids.paid, { printerId: id });
    const list = await api.get(`/api/admin/printJobs?printerId=${id}`);
    expect(list.status).toBe(200);
    expect(list.body.data.results.map((j: { kind: string }) => j.kind)).toEqual(['receipt', 'test']);
    expect(list.body.data.results[0]).toMatchObject({
      orderId: ids.paid,
      status: 'done',
      attempts: 1,
      copies: 1,
    });
    expect(list.body.data.relations.orderId).toEqual({ [ids.paid]: 'NO202501010001' });
    const failed = await api.get('/api/admin/printJobs?status=failed');
    expect(failed.body.data.results.length).toBeGreaterThanOrEqual(2);
    for (const job of failed.body.data.results) expect(job.error).toMatch(/^打印机/);
    expect((await api.post('/api/admin/printJobs', { printerId: id })).status).toBe(403);
    expect((await api.del(`/api/admin/printJobs/${list.body.data.results[0].id}`)).status).toBe(403);
    // The action is in the audit log under its resource.
    const audit = await api.get('/api/admin/auditLogs?action=orders.print');
    expect(audit.body.data.results.length).toBeGreaterThan(0);
  });

  describe('outbound policy: the printer’s address is reached under the permission of whoever set it', () => {
    it('records who set the address, and keeps it when other fields change', async () => {
      const admin = await userId(t, 'admin');
      const { id, addressSetById } = await addPrinter({ name: '管理员设置的打印机' });
      expect(addressSetById).toBe(admin);
      const renamed = await operator.patch(`/api/admin/printers/${id}`, {
        name: '改了名字',
        host: '127.0.0.1',
        port: printer.port,
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body.data.addressSetById).toBe(admin);
    });

    it('lets the operator print to a LAN printer an administrator set, by hand and as a test', async () => {
      const { id } = await addPrinter({ name: '前台（管理员设置）' });
      const res = await printOrder(ids.paid, { printerId: id }, operator);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'done', operatorId: await userId(t, 'operator') });
      expect((await testPrint(id, operator)).body.data.status).toBe('done');
    });

    it('refuses a user without the monitoring permission a loopback or private IP, on create and on update', async () => {
      for (const host of ['127.0.0.1', '192.168.1.50', '169.254.1.1']) {
        const res = await operator.post('/api/admin/printers', {
          storeId: ids.storeA,
          name: '运营添加',
          host,
          port: 9100,
        });
        expect(res.status, host).toBe(422);
        expect(res.body.data.fields.host).toMatch(
          /^没有监控权限，不能把打印机地址设为(本机|内网|链路本地)地址/,
        );
      }
      const { id } = await addPrinter({ name: '管理员的打印机' });
      const moved = await operator.patch(`/api/admin/printers/${id}`, { port: 6379 });
      expect(moved.status).toBe(422);
      expect((await api.get(`/api/admin/printers/${id}`)).body.data.port).toBe(printer.port);
    });

    it('refuses the test print of a host name an operator set that resolves to this machine: 403, no job, nothing sent', async () => {
      const created = await operator.post('/api/admin/printers', {
        storeId: ids.storeA,
        name: '运营填的主机名',
        host: 'localhost',
        port: printer.port,
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body.data.addressSetById).toBe(await userId(t, 'operator'));
      const jobs = (await api.get('/api/admin/printJobs')).body.data.page.total;
      const sent = printer.jobs.length;
      for (const as of [operator, api]) {
        const res = await testPrint(created.body.data.id, as);
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(
          /^打印机地址是本机地址（localhost → (127\.0\.0\.1|::1)），但设置该地址的用户没有监控权限，服务器不会连接；请由管理员在打印机设置中保存地址$/,
        );
      }
      expect((await api.get('/api/admin/printJobs')).body.data.page.total).toBe(jobs);
      expect(printer.jobs.length).toBe(sent);
      // Once an administrator saves the printer with that address (the form sends it back as it
      // was), it prints.
      const vouched = await api.patch(`/api/admin/printers/${created.body.data.id}`, {
        name: '管理员确认的主机名',
        host: 'localhost',
        port: printer.port,
      });
      expect(vouched.status, vouched.text).toBe(200);
      expect(vouched.body.data.addressSetById).toBe(await userId(t, 'admin'));
      expect((await testPrint(created.body.data.id, operator)).body.data.status).toBe('done');
    });
  });

  describe('automatic print on acceptance (printOrderOnAccept + sendQueued)', () => {
    it('queues one job per printer of the store that prints on acceptance, in the caller’s transaction, and sends them after the commit', async () => {
      const store = (
        await api.post('/api/admin/stores', {
          name: '自动打印门店',
          phone: '010-66668888',
          address: '北京市东城区 1 号',
        })
      ).body.data.id as number;
      const auto = await addPrinter({ storeId: store, name: '自动打印', autoPrintOnAccept: true, copies: 2 });
      await addPrinter({ storeId: store, name: '不自动打印', autoPrintOnAccept: false });
      const [order] = (await t.app.resources.insertRows(getResource('orders'), [
        {
          orderNo: 'NO202501010099',
          storeId: store,
          items: ITEMS,
          goodsFen: 6200,
          payableFen: 6200,
          paidFen: 6200,
          fulfilment: 'dineIn',
          status: 'accepted',
          paidAt: t.clock.now(),
        },
      ])) as [number];
      const operatorId = await userId(t, 'operator');
      const sent = printer.jobs.length;
      const db = t.app.db as unknown as AnyDb;
      const written = await db.transaction().execute(async (trx) => {
        const queued = await printOrderOnAccept(trx, {
          orderId: order,
          storeId: store,
          actor: { id: operatorId },
          now: t.clock.now(),
        });
        // Nothing leaves before the commit.
        expect(printer.jobs.length).toBe(sent);
        return queued;
      });
      const jobIds = written.jobs.map((job) => job.id);
      expect(jobIds).toHaveLength(1);
      // The jobs as the INSERT returned them are the rows a read gives: the sender needs no read.
      expect(written.jobs).toEqual([await jobOf(db, jobIds[0] as number)]);
      const queued = (await api.get(`/api/admin/printJobs/${jobIds[0]}`)).body.data;
      expect(queued).toMatchObject({
        status: 'queued',
        printerId: auto.id,
        orderId: order,
        operatorId,
        attempts: 0,
        copies: 2,
        error: null,
      });
      const [job] = await sendWritten(db, written.jobs);
      expect(job).toMatchObject({ id: jobIds[0], status: 'done' });
      const [bytes] = (await printer.received(sent + 1)).slice(sent) as [Buffer];
      // The printer's copies, in the one job.
      expect(qrCodes(bytes)).toEqual(['NO202501010099', 'NO202501010099']);
      expect(printedLines(bytes).join('\n')).toContain('【堂食】');
    });

    it('queues nothing for a store without printers, and a rolled-back acceptance leaves no job', async () => {
      const db = t.app.db as unknown as AnyDb;
      expect(await queueReceipts(db, { orderId: ids.elsewhere, storeId: ids.storeB, actor: null })).toEqual(
        [],
      );
      const jobs = (await api.get('/api/admin/printJobs')).body.data.page.total;
      await expect(
        db.transaction().execute(async (trx) => {
          const queued = await queueReceipts(trx, {
            orderId: ids.paid,
            storeId: ids.storeA,
            actor: null,
          });
          expect(queued.length).toBeGreaterThan(0);
          throw new Error('the acceptance failed');
        }),
      ).rejects.toThrow('the acceptance failed');
      expect((await api.get('/api/admin/printJobs')).body.data.page.total).toBe(jobs);
    });
  });
});

describe.each(DB_KINDS)('print jobs nobody is sending on %s', (kind) => {
  it('a sweep sends jobs queued over 30 s and jobs printing longer than a job can take, and leaves the rest', async () => {
    const printer = await startPrinter();
    const t = await startTestApp(kind, { config: { printing: PRINTING } });
    try {
      // The start's own pick-up is over before the jobs below exist.
      await t.app.printing.idle();
      const { api, storeA, paid, db } = await seedAutoPrinter(t, '清扫测试', printer.port);
      const now = t.clock.now();
      const queue = async (at: number) =>
        (await queueReceipts(db, { orderId: paid, storeId: storeA, actor: null, now: at }))[0] as number;
      const oldQueued = await queue(now - 31_000);
      const freshQueued = await queue(now - 5_000);
      const stale = t.app.printing.staleMs;
      const deadPrinting = await queue(now - stale - 1_000);
      await moveJob(db, deadPrinting, now - stale - 1_000, ['queued'], { status: 'printing' });
      const livePrinting = await queue(now - 1_000);
      await moveJob(db, livePrinting, now - 1_000, ['queued'], { status: 'printing' });

      await t.app.printing.recover();
      await t.app.printing.idle();
      const status = async (id: number) => (await api.get(`/api/admin/printJobs/${id}`)).body.data.status;
      expect(await status(oldQueued)).toBe('done');
      expect(await status(deadPrinting)).toBe('done');
      expect(await status(freshQueued)).toBe('queued');
      expect(await status(livePrinting)).toBe('printing');
      expect(printer.jobs).toHaveLength(2);
    } finally {
      await t.close();
      await printer.close();
    }
  });
});

describe.each(DB_KINDS)('print jobs left by a crash on %s', (kind) => {
  it('are sent when the server starts again; those queued over an hour before are failed with why', async () => {
    const printer = await startPrinter();
    const db = await createTestDatabase(kind);
    const clock = new TestClock();
    const config = { printing: PRINTING };
    try {
      const first = await startTestApp(kind, { db, clock, config });
      let jobIds: number[];
      try {
        const api = await adminApi(first);
        const { storeA, paid } = await seed(first);
        const created = await api.post('/api/admin/printers', {
          storeId: storeA,
          name: '重启前的打印机',
          host: '127.0.0.1',
          port: printer.port,
          autoPrintOnAccept: true,
        });
        expect(created.status, created.text).toBe(200);
        const trxDb = first.app.db as unknown as AnyDb;
        const old = await queueReceipts(trxDb, {
          orderId: paid,
          storeId: storeA,
          actor: null,
          now: clock.now(),
        });
        clock.advance(2 * 3_600_000);
        jobIds = await queueReceipts(trxDb, {
          orderId: paid,
          storeId: storeA,
          actor: null,
          now: clock.now(),
        });
        jobIds.unshift(...old);
        // The server stops before sending them (the crash).
      } finally {
        await first.close();
      }
      expect(printer.jobs).toHaveLength(0);

      clock.advance(60_000);
      const second = await startTestApp(kind, { db, clock, config });
      try {
        await second.app.printing.idle();
        const api = await adminApi(second);
        const [late, recent] = await Promise.all(
          jobIds.map(async (id) => (await api.get(`/api/admin/printJobs/${id}`)).body.data),
        );
        expect(late).toMatchObject({ status: 'failed', error: LATE_JOB_ERROR });
        expect(recent).toMatchObject({ status: 'done', attempts: 1 });
        expect(printer.jobs).toHaveLength(1);
        expect(qrCodes(printer.jobs[0] as Buffer)).toEqual(['NO202501010001']);
      } finally {
        await second.close();
      }
    } finally {
      await printer.close();
      await db.drop();
    }
  });
});

describe.each(DB_KINDS)('stopping the server with jobs waiting on %s', (kind) => {
  it('ends the try in flight, starts none of the jobs queued behind it, and leaves them all queued', async () => {
    // A printer that accepts and never answers: each try lasts the write timeout.
    const silent = await startPrinter('silent');
    const db = await createTestDatabase(kind);
    try {
      const t = await startTestApp(kind, { db, config: { printing: PRINTING } });
      const jobIds: number[] = [];
      try {
        await t.app.printing.idle();
        const { storeA, paid, db: trxDb } = await seedAutoPrinter(t, '不回应的打印机', silent.port);
        for (let i = 0; i < 5; i++)
          jobIds.push(
            ...(await queueReceipts(trxDb, {
              orderId: paid,
              storeId: storeA,
              actor: null,
              now: t.clock.now(),
            })),
          );
        void sendQueued(trxDb, jobIds);
        // The first job's first try has reached the printer.
        while (silent.connections() === 0) await new Promise((r) => setImmediate(r));
      } finally {
        await t.close();
      }
      // One connection in all: the jobs behind the first were not tried while stopping.
      expect(silent.connections()).toBe(1);
      // Every job is queued for the next start, none marked failed for a stop.
      const handle = openDatabase(db.database);
      try {
        const rows = (await (handle.db as unknown as AnyDb)
          .selectFrom('print_jobs')
          .select(['id', 'status', 'attempts'])
          .where('id', 'in', jobIds)
          .execute()) as { id: number; status: string; attempts: number | string }[];
        expect(rows.map((r) => r.status)).toEqual(jobIds.map(() => 'queued'));
        // The first had its one try recorded; the others none.
        expect(rows.map((r) => Number(r.attempts)).sort()).toEqual([0, 0, 0, 0, 1]);
      } finally {
        await handle.close();
      }
    } finally {
      await silent.close();
      await db.drop();
    }
  });
});

describe.each(DB_KINDS)('a printer that does not answer on %s', (kind) => {
  it('costs the automatic prints behind it no tries: they wait queued in the database, and print in order once it answers', async () => {
    // Accepts and never acknowledges: each try lasts the write timeout.
    const silent = await startPrinter('silent');
    const working = await startPrinter();
    const t = await startTestApp(kind, { config: { printing: PRINTING } });
    try {
      await t.app.printing.idle();
      const { api, storeA, paid, accepted, db } = await seedAutoPrinter(t, '午高峰关机的打印机', silent.port);
      const accept = async (orderId = paid) =>
        queueReceipts(db, { orderId, storeId: storeA, actor: null, now: t.clock.now() });
      const job = async (id: number) => (await api.get(`/api/admin/printJobs/${id}`)).body.data;

      // Five orders accepted at once: the first tries three times, the four behind it none.
      const rush: number[] = [];
      for (let i = 0; i < 5; i++) rush.push(...(await accept()));
      await sendQueued(db, rush);
      expect(silent.connections()).toBe(3);
      const [first, ...behind] = await Promise.all(rush.map(job));
      expect(first).toMatchObject({ status: 'failed', attempts: 3 });
      for (const row of behind)
        expect(row).toMatchObject({ status: 'queued', attempts: 0, error: HELD_JOB_ERROR });

      // An order accepted a moment later is not tried either.
      const later = await accept(accepted);
      await sendQueued(db, later);
      expect(silent.connections()).toBe(3);
      expect(await job(later[0] as number)).toMatchObject({ status: 'queued', error: HELD_JOB_ERROR });
      // Accepted with the print service at hand (as the order flow does), its job is written held
      // in the acceptance's own transaction: nothing is left to send after the commit.
      const inTx = await printOrderOnAccept(
        db,
        { orderId: accepted, storeId: storeA, actor: null, now: t.clock.now() },
        t.app.printing,
      );
      expect(inTx).toEqual({ queued: 1, jobs: [] });
      const held = (await api.get('/api/admin/printJobs?sort=-id&limit=1')).body.data.results[0];
      expect(held).toMatchObject({ status: 'queued', attempts: 0, error: HELD_JOB_ERROR, orderId: accepted });
      expect(silent.connections()).toBe(3);

      // 测试打印 by hand still tries: the person asking waits for the outcome.
      const printerId = first.printerId as number;
      const tested = await api.post(`/api/admin/printers/${printerId}/testPrint`);
      expect(tested.body.data).toMatchObject({ status: 'failed', attempts: 3 });
      expect(silent.connections()).toBe(6);

      // The printer answers again (here: its address now points at one that does); the sweep
      // sends what waited, oldest first.
      const moved = await api.patch(`/api/admin/printers/${printerId}`, { port: working.port });
      expect(moved.status, moved.text).toBe(200);
      t.clock.advance(QUEUED_GRACE_MS + 1_000);
      await t.app.printing.recover();
      await t.app.printing.idle();
      const waited = [...behind.map((row) => row.id as number), ...later, held.id as number];
      for (const row of await Promise.all(waited.map(job)))
        expect(row).toMatchObject({ status: 'done', attempts: 1, error: null });
      expect(working.jobs.map((bytes) => qrCodes(bytes)[0])).toEqual([
        ...behind.map(() => 'NO202501010001'),
        'NO202501010004',
        'NO202501010004',
      ]);
      // A print after that goes straight out.
      const next = await accept();
      await sendQueued(db, next);
      expect(await job(next[0] as number)).toMatchObject({ status: 'done' });
    } finally {
      await t.close();
      await silent.close();
      await working.close();
    }
  });

  it('a sweep while it still does not answer tries the oldest waiting job and leaves the others as they were', async () => {
    const silent = await startPrinter('silent');
    const t = await startTestApp(kind, { config: { printing: PRINTING } });
    try {
      await t.app.printing.idle();
      const { api, storeA, paid, db } = await seedAutoPrinter(t, '一直关机的打印机', silent.port);
      const job = async (id: number) => (await api.get(`/api/admin/printJobs/${id}`)).body.data;
      const rush: number[] = [];
      for (let i = 0; i < 4; i++)
        rush.push(
          ...(await queueReceipts(db, { orderId: paid, storeId: storeA, actor: null, now: t.clock.now() })),
        );
      await sendQueued(db, rush);
      expect(silent.connections()).toBe(3);
      const [, oldest, ...others] = await Promise.all(rush.map(job));
      for (const row of [oldest, ...others])
        expect(row).toMatchObject({ status: 'queued', error: HELD_JOB_ERROR });

      t.clock.advance(QUEUED_GRACE_MS + 1_000);
      await t.app.printing.recover();
      await t.app.printing.idle();
      // The oldest had its three tries; the two behind it were not written again (same version).
      expect(silent.connections()).toBe(6);
      expect(await job(oldest.id)).toMatchObject({ status: 'failed', attempts: 3 });
      expect(await Promise.all(others.map((row) => job(row.id)))).toEqual(others);
    } finally {
      await t.close();
      await silent.close();
    }
  });
});
