import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from './helpers.js';

describe.each(DB_KINDS)('creating, changing and deleting rows on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  const store = (name: string) => ({ name, phone: '010-12345678', address: '北京市朝阳区建国路 1 号' });
  const createStore = async (name: string) => {
    const res = await api.post('/api/admin/stores', store(name));
    expect(res.status, res.text).toBe(200);
    return res.body.data as Record<string, unknown> & { id: number; updatedAt: string };
  };
  const auditOf = async (resource: string, recordId: number) => {
    const res = await api.get(`/api/admin/auditLogs?resource=${resource}&recordId=${recordId}&sort=id`);
    expect(res.status).toBe(200);
    return res.body.data.results as Record<string, unknown>[];
  };

  it('creates a row with the defaults and answers it', async () => {
    const res = await api.post('/api/admin/stores', store('国贸门店'));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('创建成功');
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      name: '国贸门店',
      status: 'paused', // read-only, from its default
      businessHours: '09:00-21:00',
      deliveryRadiusM: 3000,
      autoAccept: false,
      minOrderFen: 0,
      createdAt: new Date(t.clock.now()).toISOString(),
      updatedAt: new Date(t.clock.now()).toISOString(),
    });
    const again = await api.get(`/api/admin/stores/${res.body.data.id}`);
    expect(again.body.data).toEqual(res.body.data);
  });

  it('answers 422 with a Chinese message per field', async () => {
    const res = await api.post('/api/admin/stores', {
      phone: 'call me',
      deliveryRadiusM: -1,
      status: 'open',
      foo: 1,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, errorCode: 422, message: '输入有误，请检查后重试' });
    expect(res.body.data.fields).toEqual({
      name: '请输入门店名称',
      address: '请输入地址',
      phone: '电话不是一个有效的电话号码',
      deliveryRadiusM: '配送半径（米）须在0-50000之间',
      status: '不支持的字段 status',
      foo: '不支持的字段 foo',
    });
    const notObject = await api.post('/api/admin/stores', [1, 2]);
    expect(notObject.status).toBe(422);
  });

  it('refuses a relation to a row that does not exist', async () => {
    const res = await api.post('/api/admin/goodsCategories', { storeId: 999_999, name: '热菜' });
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toEqual({ storeId: '所选的门店不存在' });
  });

  it('answers 409 naming the field on a duplicate unique value, on create and update, and writes nothing', async () => {
    const first = await createStore('三里屯门店');
    const dup = await api.post('/api/admin/stores', store('三里屯门店'));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      success: false,
      errorCode: 409,
      message: '门店名称已存在',
      data: { fields: { name: '门店名称已存在' } },
    });
    const other = await createStore('望京门店');
    const rename = await api.patch(`/api/admin/stores/${other.id}`, { name: '三里屯门店' });
    expect(rename.status).toBe(409);
    expect(rename.body.message).toBe('门店名称已存在');
    expect((await api.get(`/api/admin/stores/${other.id}`)).body.data.name).toBe('望京门店');
    expect(await auditOf('stores', other.id)).toHaveLength(1); // only its create
    const users = await api.post('/api/admin/users', { username: 'admin', password: 'whatever-1' });
    expect(users.status).toBe(409);
    expect(users.body.message).toBe('用户名已存在');
    expect(first.id).toBeGreaterThan(0);
  });

  it('updates only the fields sent, and moves updatedAt on', async () => {
    const row = await createStore('双井门店');
    const res = await api.patch(`/api/admin/stores/${row.id}`, { phone: '010-99998888' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('保存成功');
    expect(res.body.data).toEqual({ ...row, phone: '010-99998888', updatedAt: res.body.data.updatedAt });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(row.updatedAt));
    const cleared = await api.patch(`/api/admin/stores/${row.id}`, { businessHours: '' });
    expect(cleared.body.data.businessHours).toBeNull();
    const required = await api.patch(`/api/admin/stores/${row.id}`, { name: '' });
    expect(required.status).toBe(422);
    expect(required.body.data.fields).toEqual({ name: '请输入门店名称' });
  });

  it('answers 409 when If-Match or the body updatedAt is not the current one', async () => {
    const row = await createStore('大望路门店');
    const fresh = await api.patch(
      `/api/admin/stores/${row.id}`,
      { phone: '010-11112222' },
      { 'if-match': row.updatedAt },
    );
    expect(fresh.status).toBe(200);
    const stale = await api.patch(
      `/api/admin/stores/${row.id}`,
      { phone: '010-33334444' },
      { 'if-match': row.updatedAt },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errorCode: 409, message: '数据已被他人修改，请刷新后重试' });
    const staleBody = await api.patch(`/api/admin/stores/${row.id}`, {
      phone: '010-33334444',
      updatedAt: row.updatedAt,
    });
    expect(staleBody.status).toBe(409);
    const garbage = await api.patch(
      `/api/admin/stores/${row.id}`,
      { phone: '010-33334444' },
      { 'if-match': 'yesterday' },
    );
    expect(garbage.status).toBe(409);
    // The current value, also as an entity tag, passes.
    const current = fresh.body.data.updatedAt as string;
    const tagged = await api.patch(
      `/api/admin/stores/${row.id}`,
      { phone: '010-55556666' },
      { 'if-match': `W/"${current}"` },
    );
    expect(tagged.status).toBe(200);
    expect((await api.get(`/api/admin/stores/${row.id}`)).body.data.phone).toBe('010-55556666');
  });

  it('does not write or audit a PATCH that changes nothing', async () => {
    const row = await createStore('酒仙桥门店');
    const same = await api.patch(`/api/admin/stores/${row.id}`, { name: '酒仙桥门店', phone: row.phone });
    expect(same.status).toBe(200);
    expect(same.body.data.updatedAt).toBe(row.updatedAt);
    expect(await auditOf('stores', row.id)).toHaveLength(1);
  });

  it('answers 404 for a missing, malformed or deleted id', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await api.get(`/api/admin/stores/${id}`)).status).toBe(404);
      expect((await api.patch(`/api/admin/stores/${id}`, { phone: '010-1' })).status).toBe(404);
      expect((await api.del(`/api/admin/stores/${id}`)).status).toBe(404);
    }
    expect((await api.get('/api/admin/stores/999999')).body.message).toBe('门店不存在或已删除');
    expect((await api.get('/api/admin/noSuchThing')).status).toBe(404);
  });

  it('soft-deletes: the row leaves lists and get, stays in the table, and its unique name is free again', async () => {
    const row = await createStore('五道口门店');
    const del = await api.del(`/api/admin/stores/${row.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, data: null, message: '删除成功' });
    expect((await api.get(`/api/admin/stores/${row.id}`)).status).toBe(404);
    expect((await api.del(`/api/admin/stores/${row.id}`)).status).toBe(404);
    expect((await api.patch(`/api/admin/stores/${row.id}`, { phone: '010-1' })).status).toBe(404);
    const listed = await api.get('/api/admin/stores?limit=500');
    expect(listed.body.data.results.map((r: { id: number }) => r.id)).not.toContain(row.id);
    expect((await api.get('/api/admin/stores?q=五道口')).body.data.page.total).toBe(0);
    const kept = await t.app.db
      // biome-ignore lint/suspicious/noExplicitAny: a registry table outside the typed schema
      .selectFrom('stores' as any)
      .select(['name', 'deleted_at'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ name: '五道口门店', deleted_at: t.clock.now() });
    await createStore('五道口门店');
  });

  it('refuses to delete a row other rows still use, until they are gone', async () => {
    const shop = await createStore('亦庄门店');
    const category = await api.post('/api/admin/goodsCategories', { storeId: shop.id, name: '主食' });
    expect(category.status, category.text).toBe(200);
    const goods = await api.post('/api/admin/goods', {
      storeId: shop.id,
      categoryId: category.body.data.id,
      name: '扬州炒饭',
      priceFen: 1800,
      specs: [{ name: '大份', priceFen: 2200, stock: 10 }],
    });
    expect(goods.status, goods.text).toBe(200);
    expect(goods.body.data.specs).toEqual([{ name: '大份', priceFen: 2200, stock: 10 }]);
    const refused = await api.del(`/api/admin/goodsCategories/${category.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('该商品分类仍被商品使用，不能删除');
    // Goods are soft-deleted: a deleted one no longer holds its category.
    expect((await api.del(`/api/admin/goods/${goods.body.data.id}`)).status).toBe(200);
    expect((await api.del(`/api/admin/goodsCategories/${category.body.data.id}`)).status).toBe(200);
    expect((await api.get(`/api/admin/goodsCategories/${category.body.data.id}`)).status).toBe(404);
  });

  it('refuses methods a resource does not offer with 403 此资源不支持该操作', async () => {
    const cases: [string, () => ReturnType<Api['get']>][] = [
      ['create order refunds (noCreate)', () => api.post('/api/admin/orderRefunds', {})],
      ['delete orders (noDelete)', () => api.del('/api/admin/orders/1')],
      ['create audit logs (readOnly)', () => api.post('/api/admin/auditLogs', {})],
      ['update audit logs (readOnly)', () => api.patch('/api/admin/auditLogs/1', {})],
      ['delete audit logs (readOnly)', () => api.del('/api/admin/auditLogs/1')],
      ['create the platform config (noCreate)', () => api.post('/api/admin/platformConfig', {})],
    ];
    for (const [name, run] of cases) {
      const res = await run();
      expect(res.status, name).toBe(403);
      expect(res.body, name).toEqual({ success: false, errorCode: 403, message: '此资源不支持该操作' });
    }
  });

  it('stores a secret as given but answers it only as ****** (and keeps it when the mask comes back)', async () => {
    const created = await api.post('/api/admin/thirdServices', {
      name: '阿里云短信',
      kind: 'sms',
      endpoint: 'https://dysmsapi.aliyuncs.com',
      appId: 'LTAI5t',
      secret: 's3cr3t-value',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data.secret).toBe('******');
    const id = created.body.data.id as number;
    const stored = async () =>
      (
        await t.app.db
          // biome-ignore lint/suspicious/noExplicitAny: a registry table outside the typed schema
          .selectFrom('third_services' as any)
          .select('secret')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).secret;
    expect(await stored()).toBe('s3cr3t-value');
    expect((await api.get(`/api/admin/thirdServices/${id}`)).body.data.secret).toBe('******');
    expect(JSON.stringify((await api.get('/api/admin/thirdServices')).body)).not.toContain('s3cr3t');
    await api.patch(`/api/admin/thirdServices/${id}`, { secret: '******', appId: 'LTAI6u' });
    expect(await stored()).toBe('s3cr3t-value');
    await api.patch(`/api/admin/thirdServices/${id}`, { secret: 'n3w-secret' });
    expect(await stored()).toBe('n3w-secret');
    const none = await api.post('/api/admin/thirdServices', {
      name: '高德地图',
      kind: 'map',
      endpoint: 'https://restapi.amap.com',
    });
    expect(none.body.data.secret).toBeNull();
    const audit = await auditOf('thirdServices', id);
    expect(JSON.stringify(audit)).not.toContain('s3cr3t');
    expect(JSON.stringify(audit)).not.toContain('n3w-secret');
    expect(audit.at(-1)).toMatchObject({ before: { secret: '******' }, after: { secret: '******' } });
  });

  it('fills the masked companion of a write-only number and never answers the number', async () => {
    const res = await api.post('/api/admin/merchantApplications', {
      number: 'APPLY-0001',
      contactName: '张三',
      contactMobile: '13800138000',
      contactEmail: 'zhangsan@example.com',
      subjectType: 'enterprise',
      merchantName: '北京星河餐饮管理有限公司',
      licenseNumber: '91110105MA01ABCD2X',
      licenseImage: '/api/files/1',
      legalPerson: '张三',
      idNumber: '110101199001011234',
      shortName: '星河餐饮',
      servicePhone: '400-800-1234',
      scenes: ['store', 'miniProgram'],
      bankAccountType: 'corporate',
      accountName: '北京星河餐饮管理有限公司',
      bankName: '招商银行',
      accountNumber: '6225880123456789',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      idNumber: '******',
      idNumberMasked: '110***********1234',
      accountNumber: '******',
      accountNumberMasked: '622*********6789',
      status: 'editing',
      scenes: ['store', 'miniProgram'],
    });
    expect(JSON.stringify(res.body)).not.toContain('110101199001011234');
    const filtered = await api.get('/api/admin/merchantApplications?scenes=miniProgram');
    expect(filtered.body.data.page.total).toBe(1);
    expect((await api.get('/api/admin/merchantApplications?scenes=web')).body.data.page.total).toBe(0);
  });

  it('audits create, update and delete with the changed fields, who and from where', async () => {
    const row = await createStore('回龙观门店');
    await api.patch(`/api/admin/stores/${row.id}`, { phone: '010-22223333', autoAccept: true });
    await api.del(`/api/admin/stores/${row.id}`);
    const entries = await auditOf('stores', row.id);
    const adminId = (await api.get('/api/user/current')).body.data.id;
    expect(entries.map((e) => e.action)).toEqual(['stores.create', 'stores.update', 'stores.delete']);
    expect(entries.every((e) => e.userId === adminId && e.ip === '127.0.0.1' && e.recordId === row.id)).toBe(
      true,
    );
    expect(entries[0]).toMatchObject({ before: null, after: { name: '回龙观门店', status: 'paused' } });
    expect(entries[1]).toMatchObject({
      before: { phone: '010-12345678', autoAccept: false },
      after: { phone: '010-22223333', autoAccept: true },
    });
    expect(Object.keys(entries[1]?.after as object).sort()).toEqual(['autoAccept', 'phone']);
    expect(entries[2]).toMatchObject({ before: { name: '回龙观门店', phone: '010-22223333' }, after: null });
    // The log names the operator.
    const log = await api.get('/api/admin/auditLogs?resource=stores&limit=1');
    expect(log.body.data.relations.userId).toEqual({ [String(adminId)]: 'admin' });
  });

  it('redacts passwords in the audit of a user created with one', async () => {
    const res = await api.post('/api/admin/users', {
      username: 'auditee',
      password: 'auditee-pass-1',
      roles: ['auditor'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).not.toHaveProperty('password');
    const [entry] = await auditOf('users', res.body.data.id);
    expect(entry).toMatchObject({
      action: 'users.create',
      before: null,
      after: { username: 'auditee', password: '******', roles: ['auditor'] },
    });
    expect(JSON.stringify(entry)).not.toContain('auditee-pass-1');
    expect(JSON.stringify(entry)).not.toContain('argon2');
  });

  it('converts every storage type both ways', async () => {
    const job = await api.post('/api/admin/goods', {
      storeId: (await createStore('类型门店')).id,
      categoryId: (
        await api.post('/api/admin/goodsCategories', {
          storeId: (await api.get('/api/admin/stores?q=类型门店')).body.data.results[0].id,
          name: '类型',
        })
      ).body.data.id,
      name: '类型测试',
      priceFen: 1234,
      images: ['/api/files/1', '/api/files/2'],
      description: '多行\n描述',
      stock: 7,
      specs: [],
    });
    expect(job.status, job.text).toBe(200);
    expect(job.body.data).toMatchObject({
      priceFen: 1234,
      images: ['/api/files/1', '/api/files/2'],
      description: '多行\n描述',
      stock: 7,
      specs: [],
      salesCount: 0,
      status: 'offSale',
    });
    const withNumbers = await api.patch(`/api/admin/stores/${job.body.data.storeId}`, {
      lng: 116.397128,
      lat: 39.916527,
    });
    expect(withNumbers.body.data).toMatchObject({ lng: 116.397128, lat: 39.916527 });
    expect(getResource('goods').fields.images?.type).toBe('stringList');
  });
});
