/**
 * Accepting an order prints its receipt on the store's printers that print on acceptance: the
 * bytes a local TCP "printer" receives decode (GBK) to the order's number and lines.
 */

import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type FakePrinter, startPrinter } from '../printing/listener.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { addAutoPrinter, type OrderWorld, orderWorld, placeOrder, waitPrinted } from './fixture.js';

const PRINTING = { connectTimeoutMs: 2000, writeTimeoutMs: 2000, attempts: 2, retryDelayMs: 0 };

describe.each(DB_KINDS)('the receipt on acceptance on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let printer: FakePrinter;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { printing: PRINTING } });
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 50_000 });
    printer = await startPrinter('ack');
    await addAutoPrinter(api, w.storeId, printer.port);
  });
  afterAll(async () => {
    await printer?.close();
    await t?.close();
  });

  it('prints the receipt when the order is accepted, and the job says so', async () => {
    const order = await placeOrder(api, w, { remark: '不要香菜' });
    await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' });
    expect((await api.post(`/api/admin/orders/${order.id}/accept`)).status).toBe(200);
    const [bytes] = await printer.received(1);
    const text = iconv.decode(bytes as Buffer, 'gbk');
    expect(text).toContain(order.orderNo);
    expect(text).toContain('牛肉面');
    expect(text).toContain('奶茶');
    expect(text).toContain('不要香菜');
    expect(text).toContain(`￥${(order.payableFen / 100).toFixed(2)}`);
    const jobs = await api.get(`/api/admin/printJobs?orderId=${order.id}`);
    expect(jobs.body.data.results).toHaveLength(1);
    await waitPrinted(api, jobs.body.data.results[0].id);
  });
});
