import { ErrorCode, getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { signIn, tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs, seedOrders, userId } from './helpers.js';

describe.each(DB_KINDS)('actions on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let orders: number[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    ({ ids: orders } = await seedOrders(t, 10));
  });
  afterAll(async () => t?.close());

  const act = (
    resource: string,
    id: number,
    action: string,
    body: unknown = {},
    headers: Record<string, string> = {},
  ) => api.post(`/api/admin/${resource}/${id}/${action}`, body, headers);
  /** Orders in the seed cycle statuses: index i has pending_payment, paid, accepted, completed, cancelled. */
  const order = (i: number) => orders[i] as number;

  it('gives every change its own updatedAt, within one millisecond too: updates, transitions and handlers share one stamp rule', async () => {
    // The test clock stands still: every write below happens at the same instant.
    const created = await api.post('/api/admin/stores', {
      name: '同一毫秒门店',
      phone: '010-66668888',
      address: '北京市东城区东直门 1 号',
    });
    expect(created.status, created.text).toBe(200);
    const store = created.body.data.id as number;
    const stamps = [created.body.data.updatedAt as string];
    const step = async (res: Awaited<ReturnType<Api['get']>>) => {
      expect(res.status, res.text).toBe(200);
      stamps.push(res.body.data.updatedAt);
    };
    const ifMatch = () => ({ 'if-match': stamps.at(-1) as string });
    await step(await api.patch(`/api/admin/stores/${store}`, { phone: '010-66668889' }, ifMatch()));
    // A new store starts paused.
    await step(await act('stores', store, 'open', {}, ifMatch()));
    await step(await act('stores', store, 'pause', {}, ifMatch()));
    const user = await api.post('/api/admin/users', {
      username: 'same_ms',
      password: 'Same#ms-2024',
      roles: [],
    });
    expect(user.status, user.text).toBe(200);
    const userStamps = [user.body.data.updatedAt as string];
    for (const action of ['disable', 'enable']) {
      const res = await act(
        'users',
        user.body.data.id,
        action,
        {},
        { 'if-match': userStamps.at(-1) as string },
      );
      expect(res.status, res.text).toBe(200);
      userStamps.push(res.body.data.updatedAt);
    }
    for (const list of [stamps, userStamps]) {
      const times = list.map((s) => Date.parse(s));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1] as number);
    }
    // A version that is no longer the row's is refused by transitions as by updates.
    const stale = await act('stores', store, 'open', {}, { 'if-match': stamps[1] as string });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('数据已被他人修改，请刷新后重试');
  });

  describe('transitions declared in the registry', () => {
    it('moves a paid order to accepted, stamps acceptedAt and answers the row', async () => {
      const res = await act('orders', order(1), 'accept');
      expect(res.status, res.text).toBe(200);
      expect(res.body.message).toBe('接单成功');
      expect(res.body.data).toMatchObject({
        id: order(1),
        status: 'accepted',
        acceptedAt: new Date(t.clock.now()).toISOString(),
      });
      const [entry] = (await api.get(`/api/admin/auditLogs?resource=orders&recordId=${order(1)}`)).body.data
        .results;
      expect(entry).toMatchObject({
        action: 'orders.accept',
        before: { status: 'paid', acceptedAt: null },
        after: { status: 'accepted', acceptedAt: new Date(t.clock.now()).toISOString() },
      });
    });

    it("answers 409 with the order machine's reason from any other state, and changes nothing", async () => {
      for (const [i, action] of [
        [0, 'accept'], // pending_payment
        [3, 'accept'], // completed
        [4, 'prepare'], // cancelled
        [1, 'complete'], // accepted above
      ] as const) {
        const before = (await api.get(`/api/admin/orders/${order(i)}`)).body.data;
        const res = await act('orders', order(i), action);
        expect(res.status, `${action} #${i}`).toBe(409);
        expect(res.body).toEqual({
          success: false,
          errorCode: 409,
          message: expect.stringMatching(/^订单(待支付|已完成|已取消|已接单)，不能(接单|开始制作|完成)$/),
        });
        expect((await api.get(`/api/admin/orders/${order(i)}`)).body.data).toEqual(before);
      }
    });

    it('respects `when`: a pickup order is never dispatched, a delivery order never picked up', async () => {
      const [delivery] = (await t.app.resources.insertRows(getResource('orders'), [
        { orderNo: 'DELIVERY-1', status: 'paid', fulfilment: 'delivery' },
      ])) as [number];
      for (const step of ['accept', 'prepare', 'ready'])
        expect((await act('orders', delivery, step)).status).toBe(200);
      expect((await act('orders', delivery, 'pickedUp')).body.message).toBe('外卖配送订单不能已取餐');
      // Dispatching needs a runner (server/test/orders walks the whole delivery).
      expect((await act('orders', delivery, 'dispatch')).body.message).toBe('请先指派骑手');

      const [pickup] = await t.app.resources.insertRows(getResource('orders'), [
        { orderNo: 'PICKUP-1', status: 'ready', fulfilment: 'pickup' },
      ]);
      expect((await act('orders', pickup as number, 'dispatch')).body.message).toBe(
        '到店自取订单不能开始配送',
      );
      const done = await act('orders', pickup as number, 'pickedUp');
      expect(done.body.data).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    });

    it('lets only one of two concurrent identical transitions through', async () => {
      const [target] = await t.app.resources.insertRows(getResource('orders'), [
        { orderNo: 'RACE-1', status: 'paid' },
      ]);
      const answers = await Promise.all([
        act('orders', target as number, 'accept'),
        act('orders', target as number, 'accept'),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    });

    it('checks If-Match on actions too, and answers 404 for unknown actions and rows', async () => {
      const store = await api.post('/api/admin/stores', {
        name: '动作门店',
        phone: '010-1234567',
        address: '北京',
      });
      const { id, updatedAt } = store.body.data;
      const opened = await act('stores', id, 'open', {}, { 'if-match': updatedAt });
      expect(opened.body.data.status).toBe('open');
      expect((await act('stores', id, 'pause', {}, { 'if-match': updatedAt })).status).toBe(409);
      expect((await act('stores', id, 'pause')).body.data.status).toBe('paused');
      const unknown = await act('stores', id, 'explode');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('门店没有“explode”操作');
      expect((await act('stores', 999_999, 'open')).status).toBe(404);
      // A resource without actions has no action route at all.
      expect((await act('memberLevels', 1, 'open')).status).toBe(404);
    });
  });

  describe('users', () => {
    it('creates a user with a password and roles: they sign in with them', async () => {
      const res = await api.post('/api/admin/users', {
        username: 'zhangwei',
        password: 'zhangwei-pass-1',
        nickname: '张伟',
        phone: '13800138000',
        roles: ['operator', 'editor'],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({
        username: 'zhangwei',
        roles: ['editor', 'operator'],
        status: 'active',
      });
      expect(res.body.data).not.toHaveProperty('password');
      const signin = await signIn(t.app, 'zhangwei', 'zhangwei-pass-1');
      expect(signin.json().data.authority).toEqual(['editor', 'operator']);
      const hash = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', 'zhangwei')
        .executeTakeFirstOrThrow();
      expect(hash.password_hash).toMatch(/^\$argon2id\$/);
      const patched = await api.patch(`/api/admin/users/${res.body.data.id}`, { roles: ['auditor'] });
      expect(patched.body.data.roles).toEqual(['auditor']);
      const token = signin.json().data.token as string;
      const me = await apiAs(t.app, token).get('/api/user/current');
      expect(me.body.data.roles).toEqual(['auditor']);
      // The password cannot be changed by PATCH (only by the action).
      const pw = await api.patch(`/api/admin/users/${res.body.data.id}`, { password: 'x-new-password' });
      expect(pw.status).toBe(422);
      expect(pw.body.data.fields).toEqual({ password: '不支持的字段 password' });
    });

    it('disable: the user’s next call answers HTTP 200 errorCode 1, sign-in says disabled; enable undoes it', async () => {
      const guestToken = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
      const guest = apiAs(t.app, guestToken);
      expect((await guest.get('/api/user/current')).status).toBe(200);
      const id = await userId(t, 'guest');
      const res = await act('users', id, 'disable');
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.status).toBe('disabled');
      const next = await guest.get('/api/user/current');
      expect(next.status).toBe(200);
      expect(next.body).toEqual({
        success: false,
        errorCode: ErrorCode.sessionRevoked,
        message: '登录状态已失效，请重新登录',
      });
      expect((await signIn(t.app, 'guest', DEMO_PASSWORD)).json().errorCode).toBe(ErrorCode.accountDisabled);
      expect((await act('users', id, 'disable')).status).toBe(409);
      const enabled = await act('users', id, 'enable');
      expect(enabled.body.data.status).toBe('active');
      expect((await act('users', id, 'enable')).status).toBe(409);
      expect((await signIn(t.app, 'guest', DEMO_PASSWORD)).json().success).toBe(true);
      const entries = (await api.get(`/api/admin/auditLogs?resource=users&recordId=${id}&sort=id`)).body.data
        .results;
      expect(entries.map((e: { action: string }) => e.action)).toEqual(['users.disable', 'users.enable']);
      expect(entries[0]).toMatchObject({ before: { status: 'active' }, after: { status: 'disabled' } });
    });

    it('resetPassword: the new password signs in, the old one and old sessions no longer work', async () => {
      const old = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
      const id = await userId(t, 'editor');
      const short = await act('users', id, 'resetPassword', { password: 'short' });
      expect(short.status).toBe(422);
      expect(short.body.data.fields).toEqual({ password: '新密码须在8-128字符之间' });
      const res = await act('users', id, 'resetPassword', { password: 'editor-new-pass' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).not.toHaveProperty('password');
      expect((await signIn(t.app, 'editor', DEMO_PASSWORD)).json().errorCode).toBe(
        ErrorCode.wrongCredentials,
      );
      expect((await signIn(t.app, 'editor', 'editor-new-pass')).json().success).toBe(true);
      expect((await apiAs(t.app, old).get('/api/user/current')).body.errorCode).toBe(
        ErrorCode.sessionRevoked,
      );
      const [entry] = (await api.get(`/api/admin/auditLogs?action=users.resetPassword&recordId=${id}`)).body
        .data.results;
      expect(entry).toMatchObject({ before: { password: '******' }, after: { password: '******' } });
      expect(JSON.stringify(entry)).not.toContain('editor-new-pass');
    });

    it('refuses to disable or delete oneself; deleting a user signs them out for good', async () => {
      const me = (await api.get('/api/user/current')).body.data.id as number;
      expect((await act('users', me, 'disable')).body).toMatchObject({
        errorCode: 409,
        message: '不能停用自己的账号',
      });
      expect((await api.del(`/api/admin/users/${me}`)).body).toMatchObject({
        errorCode: 409,
        message: '不能删除自己的账号',
      });

      const created = await api.post('/api/admin/users', { username: 'leaver', password: 'leaver-pass-1' });
      const token = await tokenOf(t.app, 'leaver', 'leaver-pass-1');
      expect((await api.del(`/api/admin/users/${created.body.data.id}`)).status).toBe(200);
      expect((await apiAs(t.app, token).get('/api/user/current')).body.errorCode).toBe(
        ErrorCode.sessionRevoked,
      );
      expect((await signIn(t.app, 'leaver', 'leaver-pass-1')).json().errorCode).toBe(
        ErrorCode.wrongCredentials,
      );
      expect((await api.get(`/api/admin/users/${created.body.data.id}`)).status).toBe(404);
      // The name stays taken: history keeps pointing at the deleted account.
      expect(
        (await api.post('/api/admin/users', { username: 'leaver', password: 'leaver-pass-2' })).status,
      ).toBe(409);
    });
  });

  describe('handlers of other areas', () => {
    it('bbs reject keeps the reason; approve clears it; reject from a rejected topic is a 409', async () => {
      const node = await api.post('/api/admin/bbsNodes', { name: '美食' });
      const topic = await api.post('/api/admin/bbsTopics', {
        nodeId: node.body.data.id,
        authorId: await userId(t, 'guest'),
        title: '哪家火锅好吃',
        content: '求推荐',
      });
      expect(topic.status, topic.text).toBe(200);
      // Clean text: published at once by the word filter (server/test/community covers the queue).
      expect(topic.body.data.status).toBe('published');
      const id = topic.body.data.id as number;
      const missing = await act('bbsTopics', id, 'reject', {});
      expect(missing.status).toBe(422);
      expect(missing.body.data.fields).toEqual({ reason: '请输入驳回原因' });
      const rejected = await act('bbsTopics', id, 'reject', { reason: '含广告' });
      expect(rejected.body.data).toMatchObject({ status: 'rejected', rejectReason: '含广告' });
      expect((await act('bbsTopics', id, 'reject', { reason: '再次' })).status).toBe(409);
      expect((await act('bbsTopics', id, 'approve')).body.data).toMatchObject({
        status: 'published',
        rejectReason: null,
      });
    });

    it('purchaseIn adds to the stock and may update the cost', async () => {
      const supplier = await api.post('/api/admin/suppliers', {
        name: '新发地蔬菜',
        contact: '李四',
        phone: '13900139000',
      });
      expect(supplier.status, supplier.text).toBe(200);
      const product = await api.post('/api/admin/supplyProducts', {
        supplierId: supplier.body.data.id,
        name: '土豆',
        unit: 'kg',
        costFen: 300,
        stock: 10,
      });
      expect(product.status, product.text).toBe(200);
      const id = product.body.data.id as number;
      const res = await act('supplyProducts', id, 'purchaseIn', { qty: 2.5 });
      expect(res.body.data).toMatchObject({ stock: 12.5, costFen: 300 });
      const priced = await act('supplyProducts', id, 'purchaseIn', { qty: 1, costFen: 320 });
      expect(priced.body.data).toMatchObject({ stock: 13.5, costFen: 320 });
      expect((await act('supplyProducts', id, 'purchaseIn', { qty: 0 })).status).toBe(422);
    });

    it('merchant reject stores the per-field reasons, only from auditing', async () => {
      const [id] = await t.app.resources.insertRows(getResource('merchantApplications'), [
        {
          number: 'APPLY-7',
          contactName: '王五',
          contactMobile: '13700137000',
          contactEmail: 'w@example.com',
          subjectType: 'individual',
          merchantName: '王五小吃店',
          licenseNumber: '92110105MA01ABCD2X',
          licenseImage: '/api/files/1',
          legalPerson: '王五',
          idNumber: '110101199001011234',
          shortName: '王五小吃',
          servicePhone: '13700137000',
          scenes: ['store'],
          bankAccountType: 'personal',
          accountName: '王五',
          bankName: '工商银行',
          accountNumber: '6222020202020202',
          status: 'editing',
        },
      ]);
      const detail = [{ field: 'licenseImage', reason: '营业执照照片不清晰' }];
      expect(
        (await act('merchantApplications', id as number, 'reject', { auditDetail: detail })).status,
      ).toBe(409);
      expect((await act('merchantApplications', id as number, 'submit')).body.data.status).toBe('auditing');
      const res = await act('merchantApplications', id as number, 'reject', { auditDetail: detail });
      expect(res.body.data).toMatchObject({
        status: 'rejected',
        auditDetail: detail,
        idNumberMasked: '110***********1234',
      });
      expect((await act('merchantApplications', id as number, 'reject', { auditDetail: [] })).status).toBe(
        422,
      );
    });
  });
});
