/**
 * GET /api/admin/income and its CSV over orders and refunds written here: what each figure
 * counts, China day boundaries (16:00 UTC), weeks from Monday, empty periods as zero rows, the
 * store filter, refusals and permissions — on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs } from '../resources/helpers.js';

const at = (iso: string) => Date.parse(iso);
const zero = { revenueFen: 0, orders: 0, refundsFen: 0, netFen: 0, avgTicketFen: 0 };

describe.each(DB_KINDS)('income on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let storeA: number;
  let storeB: number;
  let storeC: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    // 2025-01-15 12:00 in China.
    t.clock.current = at('2025-01-15T04:00:00Z');
    admin = await adminApi(t);
    [storeA, storeB, storeC] = (await t.app.resources.insertRows(getResource('stores'), [
      { name: '朝阳门店', phone: '010-12345678', address: '北京市朝阳区建国路 1 号', status: 'open' },
      { name: '海淀门店', phone: '010-87654321', address: '北京市海淀区中关村大街 2 号', status: 'open' },
      { name: '=西城门店', phone: '010-11112222', address: '北京市西城区金融街 3 号', status: 'paused' },
    ])) as [number, number, number];
    let n = 0;
    const order = (storeId: number, status: string, paidFen: number, paidAt: string | null) => ({
      orderNo: `NO${String(++n).padStart(4, '0')}`,
      storeId,
      status,
      fulfilment: 'pickup',
      payMethod: 'wechat',
      payableFen: paidFen || 5000,
      paidFen,
      paidAt: paidAt && at(paidAt),
      createdAt: at(paidAt ?? '2025-01-06T05:00:00Z') - 60_000,
    });
    const orderIds = await t.app.resources.insertRows(getResource('orders'), [
      // 2025-01-05 23:59:59.999 in China: the last instant of the 5th.
      order(storeA, 'completed', 1000, '2025-01-05T15:59:59.999Z'),
      // 2025-01-06 00:00 in China: the 6th.
      order(storeA, 'completed', 2001, '2025-01-05T16:00:00.000Z'),
      order(storeB, 'completed', 1000, '2025-01-06T03:00:00Z'),
      // Never paid: counted nowhere.
      order(storeB, 'pending_payment', 0, null),
      // Paid on the 8th, cancelled and refunded in full on the 13th (China).
      order(storeA, 'cancelled', 3000, '2025-01-08T02:00:00Z'),
      order(storeB, 'completed', 1500, '2025-01-13T01:00:00Z'),
      // Paid before the range: only its refund on the 13th is in it.
      order(storeB, 'completed', 800, '2024-12-20T02:00:00Z'),
    ]);
    const refund = (orderIndex: number, amountFen: number, status: string, refundedAt: string | null) => ({
      refundNo: `RF${orderIndex}${status}`,
      orderId: orderIds[orderIndex],
      kind: 'full',
      amountFen,
      status,
      refundedAt: refundedAt && at(refundedAt),
    });
    await t.app.resources.insertRows(getResource('orderRefunds'), [
      refund(4, 3000, 'refunded', '2025-01-12T16:30:00Z'), // 2025-01-13 00:30 in China
      refund(6, 300, 'refunded', '2025-01-13T08:00:00Z'),
      // Not paid back (yet): counted nowhere.
      refund(5, 500, 'pending', null),
      refund(2, 200, 'approved', null),
      refund(1, 100, 'rejected', null),
    ]);
  });
  afterAll(async () => t?.close());

  it('answers the figures of every China day of the range, empty days as zero rows', async () => {
    const res = await admin.get('/api/admin/income?granularity=day&from=2025-01-05&to=2025-01-14');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect([data.granularity, data.from, data.to, data.storeId]).toEqual([
      'day',
      '2025-01-05',
      '2025-01-14',
      null,
    ]);
    expect(data.series).toHaveLength(10);
    const day = (d: string) => data.series.find((row: { period: string }) => row.period === d);
    expect(day('2025-01-05')).toEqual({
      period: '2025-01-05',
      from: '2025-01-05',
      to: '2025-01-05',
      revenueFen: 1000,
      orders: 1,
      refundsFen: 0,
      netFen: 1000,
      avgTicketFen: 1000,
    });
    // 2001 + 1000 over two orders: 1500.5 rounds up.
    expect(day('2025-01-06')).toMatchObject({
      revenueFen: 3001,
      orders: 2,
      refundsFen: 0,
      avgTicketFen: 1501,
    });
    expect(day('2025-01-07')).toMatchObject(zero);
    expect(day('2025-01-08')).toMatchObject({ revenueFen: 3000, orders: 1, refundsFen: 0, netFen: 3000 });
    // The refund counts on the day it was paid back, whenever its order was paid.
    expect(day('2025-01-13')).toMatchObject({ revenueFen: 1500, orders: 1, refundsFen: 3300, netFen: -1800 });
    expect(day('2025-01-14')).toMatchObject(zero);
    expect(data.totals).toEqual({
      revenueFen: 8501,
      orders: 5,
      refundsFen: 3300,
      netFen: 5201,
      avgTicketFen: 1700, // 1700.2
    });
  });

  it('lists every store, highest revenue first, even one without orders', async () => {
    const { body } = await admin.get('/api/admin/income?from=2025-01-05&to=2025-01-14');
    expect(body.data.byStore).toEqual([
      {
        storeId: storeA,
        storeName: '朝阳门店',
        revenueFen: 6001,
        orders: 3,
        refundsFen: 3000,
        netFen: 3001,
        avgTicketFen: 2000,
      },
      {
        storeId: storeB,
        storeName: '海淀门店',
        revenueFen: 2500,
        orders: 2,
        refundsFen: 300,
        netFen: 2200,
        avgTicketFen: 1250,
      },
      { storeId: storeC, storeName: '=西城门店', ...zero },
    ]);
  });

  it('sums weeks from Monday, cut to the range', async () => {
    const { body } = await admin.get('/api/admin/income?granularity=week&from=2025-01-05&to=2025-01-14');
    expect(
      body.data.series.map((r: Record<string, unknown>) => [r.period, r.from, r.to, r.revenueFen, r.orders]),
    ).toEqual([
      ['2024-12-30', '2025-01-05', '2025-01-05', 1000, 1],
      ['2025-01-06', '2025-01-06', '2025-01-12', 6001, 3],
      ['2025-01-13', '2025-01-13', '2025-01-14', 1500, 1],
    ]);
  });

  it('sums months, and reads an end after today as today', async () => {
    const { body } = await admin.get('/api/admin/income?granularity=month&from=2024-12-01&to=2025-01-31');
    expect(body.data.to).toBe('2025-01-15');
    expect(
      body.data.series.map((r: Record<string, unknown>) => [
        r.period,
        r.from,
        r.to,
        r.revenueFen,
        r.refundsFen,
      ]),
    ).toEqual([
      ['2024-12', '2024-12-01', '2024-12-31', 800, 0],
      ['2025-01', '2025-01-01', '2025-01-15', 8501, 3300],
    ]);
  });

  it('defaults to the last 30 days', async () => {
    const { body } = await admin.get('/api/admin/income');
    expect([body.data.granularity, body.data.from, body.data.to]).toEqual([
      'day',
      '2024-12-17',
      '2025-01-15',
    ]);
    expect(body.data.series).toHaveLength(30);
    expect(body.data.totals.orders).toBe(6);
  });

  it('filters by store: figures, stores and totals of that store only', async () => {
    const { body } = await admin.get(`/api/admin/income?from=2025-01-05&to=2025-01-14&storeId=${storeB}`);
    expect(body.data.storeId).toBe(storeB);
    expect(body.data.byStore.map((s: { storeName: string }) => s.storeName)).toEqual(['海淀门店']);
    expect(body.data.totals).toEqual({
      revenueFen: 2500,
      orders: 2,
      refundsFen: 300,
      netFen: 2200,
      avgTicketFen: 1250,
    });
    expect(
      body.data.series
        .filter((r: { orders: number }) => r.orders > 0)
        .map((r: { period: string }) => r.period),
    ).toEqual(['2025-01-06', '2025-01-13']);
  });

  it.each([
    ['granularity=year', { granularity: '统计粒度须为 day、week 或 month' }],
    ['from=2025-02-30', { from: '请输入有效日期（YYYY-MM-DD）' }],
    ['from=2025-01-10&to=2025-01-05', { from: '开始日期不能晚于结束日期' }],
    ['from=2025-01-16', { from: '开始日期不能晚于今天' }],
    ['from=2024-01-01&to=2025-01-14', { from: '按日统计最多 366 天，请缩短日期范围' }],
    ['storeId=abc', { storeId: '门店须为门店的 id' }],
    ['storeId=99999', { storeId: '所选的门店不存在' }],
    ['store=1', { store: '未知的查询参数' }],
  ])('refuses %s with a Chinese 422', async (query, fields) => {
    const res = await admin.get(`/api/admin/income?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      errorCode: 422,
      message: '输入有误，请检查后重试',
      data: { fields },
    });
  });

  it('needs finance:read: 401 without a token, 403 to an editor, figures to an operator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/income' })).statusCode).toBe(401);
    const editor = apiAs(t.app, await tokenOf(t.app, 'editor', DEMO_PASSWORD));
    for (const url of ['/api/admin/income', '/api/admin/income/export?format=csv']) {
      const res = await editor.get(url);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('没有权限执行此操作');
    }
    const operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    expect(
      (await operator.get('/api/admin/income?from=2025-01-05&to=2025-01-14')).body.data.totals.orders,
    ).toBe(5);
  });

  it('exports the table by period as CSV: BOM, Chinese headers, yuan as plain numbers, a 合计 line', async () => {
    const res = await admin.get(
      '/api/admin/income/export?format=csv&granularity=week&from=2025-01-05&to=2025-01-14',
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('收入统计_2025-01-05_2025-01-14.csv')}`,
    );
    expect(res.text.split('\r\n')).toEqual([
      '\uFEFF期间,营业额,订单数,退款,净收入,客单价',
      '2025-01-05 ~ 01-05,10.00,1,0.00,10.00,10.00',
      '2025-01-06 ~ 01-12,60.01,3,0.00,60.01,20.00',
      '2025-01-13 ~ 01-14,15.00,1,33.00,-18.00,15.00',
      '合计,85.01,5,33.00,52.01,17.00',
      '',
    ]);
  });

  it('exports the table by store, a name a spreadsheet would run kept as text', async () => {
    const res = await admin.get('/api/admin/income/export?by=store&from=2025-01-05&to=2025-01-14');
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n')).toEqual([
      '\uFEFF门店,营业额,订单数,退款,净收入,客单价',
      '朝阳门店,60.01,3,30.00,30.01,20.00',
      '海淀门店,25.00,2,3.00,22.00,12.50',
      "'=西城门店,0.00,0,0.00,0.00,0.00",
      '合计,85.01,5,33.00,52.01,17.00',
      '',
    ]);
  });

  it('refuses an export it cannot make, changing nothing', async () => {
    const res = await admin.get('/api/admin/income/export?format=xlsx&by=month&from=x');
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toEqual({
      format: '导出格式须为 csv',
      by: '表格须为 period（按期间）或 store（按门店）',
      from: '请输入有效日期（YYYY-MM-DD）',
    });
  });

  it('is described in the OpenAPI document with its definitions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const income = doc.paths['/api/admin/income'].get;
    expect(income.description).toContain('客单价 = 营业额 ÷ 订单数');
    expect(income.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'from',
      'granularity',
      'storeId',
      'to',
    ]);
    expect(doc.paths['/api/admin/income/export'].get.summary).toBe('收入统计：导出 CSV');
  });
});
