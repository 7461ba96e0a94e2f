/** Chat-bot replies: the admin test route and the public one (enabled bots, rate-limited). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_REPLIES_PER_MINUTE } from '../../src/domain/community/chat-bot-routes.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

describe.each(DB_KINDS)('chat bots on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let bot: number;
  let off: number;
  const rules = [
    { keyword: '价格', reply: '价格请见官网' },
    { keyword: '1', reply: '菜单一', match: 'exact' },
  ];
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    const made = await api.post('/api/admin/chatBots', { name: '客服', rules, enabled: true });
    expect(made.status, made.text).toBe(200);
    bot = made.body.data.id;
    off = (await api.post('/api/admin/chatBots', { name: '停用', rules, enabled: false })).body.data.id;
  });
  afterAll(async () => t?.close());

  const publicReply = (id: number, message: unknown, ip = '203.0.113.9') =>
    t.app.inject({
      method: 'POST',
      url: `/api/public/chat-bots/${id}/reply`,
      payload: { message },
      remoteAddress: ip,
    });

  it('the admin test box: the reply and the rule that matched', async () => {
    const res = await api.post(`/api/admin/chatBots/${bot}/reply`, { message: '请问 价 格？' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ reply: '价格请见官网', ruleIndex: 0 });
    expect((await api.post(`/api/admin/chatBots/${off}/reply`, { message: '１' })).body.data).toEqual({
      reply: '菜单一',
      ruleIndex: 1,
    });
    expect((await api.post(`/api/admin/chatBots/${bot}/reply`, { message: '你好' })).body.data).toEqual({
      reply: null,
      ruleIndex: null,
    });
  });

  it('bad input: Chinese 422 or 404, never a 500', async () => {
    const empty = await api.post(`/api/admin/chatBots/${bot}/reply`, { message: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body.data.fields).toEqual({ message: '请输入消息' });
    expect((await api.post(`/api/admin/chatBots/${bot}/reply`, { message: 5 })).status).toBe(422);
    expect((await api.post(`/api/admin/chatBots/${bot}/reply`, { message: '长'.repeat(501) })).status).toBe(
      422,
    );
    expect((await api.post('/api/admin/chatBots/999999/reply', { message: '价格' })).status).toBe(404);
    expect((await api.post('/api/admin/chatBots/abc/reply', { message: '价格' })).status).toBe(404);
  });

  it('rules are validated as a list of keyword and reply', async () => {
    const bad = await api.post('/api/admin/chatBots', { name: '坏', rules: [{ keyword: '', reply: 'x' }] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.data.fields)).toMatch(/关键词不能为空/);
  });

  it('the public route answers for an enabled bot only', async () => {
    const res = await publicReply(bot, '价格');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ reply: '价格请见官网', ruleIndex: 0 });
    const disabled = await publicReply(off, '价格');
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json().message).toBe('聊天机器人不存在或未启用');
  });

  it('the public route is limited per address per minute, then 429 until the minute passes', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < PUBLIC_REPLIES_PER_MINUTE; i++)
      expect((await publicReply(bot, '价格', ip)).statusCode).toBe(200);
    const limited = await publicReply(bot, '价格', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await publicReply(bot, '价格', '198.51.100.8')).statusCode).toBe(200);
    t.clock.advance(60_001);
    expect((await publicReply(bot, '价格', ip)).statusCode).toBe(200);
  });
});
