/**
 * Moderation through the admin API: new topics and replies are checked by the word filter (clean
 * → published with the author's points, hit → pending with the words), edits re-check, approve
 * and reject move the status and append points rows in the same transaction; the word list is
 * imported in bulk and a change to it is seen at the next post (also when another process wrote it).
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineExtensions } from '../../src/domain/areas.js';
import { WordFilterCache } from '../../src/domain/community/word-filter.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

describe.each(DB_KINDS)('community moderation on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let author: number;
  let nodeId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    [author] = (await t.app.resources.insertRows(getResource('users'), [
      { username: 'writer', password: 'Writer#2025', phone: '13800001111', roles: [] },
    ])) as [number];
    const node = await api.post('/api/admin/bbsNodes', { name: '闲聊' });
    nodeId = node.body.data.id;
    const imported = await api.post('/api/admin/sensitiveWords/importWords', {
      words: '加微信\n赌博\n\n ＷＸ \n加 微 信\n',
      category: 'ad',
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toEqual({ added: 3, skipped: 1 });
  });
  afterAll(async () => t?.close());

  const points = async () =>
    (await api.get(`/api/admin/bbsPoints?userId=${author}&sort=id`)).body.data.results.map(
      (r: Record<string, unknown>) => [r.change, r.reason],
    );
  const topic = (over: Record<string, unknown> = {}) =>
    api.post('/api/admin/bbsTopics', {
      nodeId,
      authorId: author,
      title: '周末去爬山',
      content: '有人一起吗',
      ...over,
    });

  it('a clean topic is published at once, with +5 for its author', async () => {
    const before = (await points()).length;
    const res = await topic();
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'published', flaggedWords: [] });
    expect((await points()).slice(before)).toEqual([[5, `帖子 #${res.body.data.id} 发布`]]);
    // Checked before it was written, and written once: never pending for a moment, its version
    // (what an edit must send back) the one it was created with, as a read answers it too.
    expect(res.body.data.updatedAt).toBe(res.body.data.createdAt);
    const read = await api.get(`/api/admin/bbsTopics/${res.body.data.id}`);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('a topic with a disguised word waits in the queue with the words found, no points', async () => {
    const before = (await points()).length;
    const res = await topic({ title: '赚钱门路', content: '详情 加 微 信 或者ｗｘ联系' });
    expect(res.body.data).toMatchObject({ status: 'pending', flaggedWords: ['加微信', 'ＷＸ'] });
    expect((await points()).length).toBe(before);
    const queue = await api.get('/api/admin/bbsTopics?status=pending');
    expect(queue.body.data.results.map((r: { id: number }) => r.id)).toContain(res.body.data.id);
  });

  it('reject needs a reason (Chinese), then sets 已驳回 with it and −5; rejecting again is refused', async () => {
    const id = (await topic({ content: '来赌博' })).body.data.id;
    const silent = await api.post(`/api/admin/bbsTopics/${id}/reject`, {});
    expect(silent.status).toBe(422);
    expect(silent.body.data.fields.reason).toMatch(/驳回原因/);
    const before = (await points()).length;
    const res = await api.post(`/api/admin/bbsTopics/${id}/reject`, { reason: '含赌博信息' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectReason: '含赌博信息' });
    expect((await points()).slice(before)).toEqual([[-5, `帖子 #${id} 内容违规扣分`]]);
    const again = await api.post(`/api/admin/bbsTopics/${id}/reject`, { reason: '再驳' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('帖子已驳回');
  });

  it('approve publishes with the award; approving a published topic is refused', async () => {
    const id = (await topic({ content: '加微信' })).body.data.id;
    const before = (await points()).length;
    const res = await api.post(`/api/admin/bbsTopics/${id}/approve`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.status).toBe('published');
    expect((await points()).slice(before)).toEqual([[5, `帖子 #${id} 审核通过`]]);
    const again = await api.post(`/api/admin/bbsTopics/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('帖子已发布，无需审核');
  });

  it('rejecting a published reply takes the award back and the penalty, in two rows', async () => {
    const topicId = (await topic()).body.data.id;
    const reply = await api.post('/api/admin/bbsPosts', { topicId, authorId: author, content: '同去' });
    expect(reply.body.data.status).toBe('published');
    const id = reply.body.data.id;
    const before = (await points()).length;
    await api.post(`/api/admin/bbsPosts/${id}/reject`, { reason: '灌水' });
    expect((await points()).slice(before)).toEqual([
      [-2, `回帖 #${id} 被驳回，收回积分`],
      [-5, `回帖 #${id} 内容违规扣分`],
    ]);
  });

  it('an edit re-checks: a flagged edit sends a published topic back with the award taken back', async () => {
    const created = (await topic()).body.data;
    const before = (await points()).length;
    const edited = await api.patch(`/api/admin/bbsTopics/${created.id}`, {
      content: '私聊 加-微-信',
      updatedAt: created.updatedAt,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'pending', flaggedWords: ['加微信'] });
    expect((await points()).slice(before)).toEqual([[-5, `帖子 #${created.id} 修改后待审核，收回积分`]]);
    const clean = await api.patch(`/api/admin/bbsTopics/${created.id}`, {
      content: '改好了',
      updatedAt: edited.body.data.updatedAt,
    });
    expect(clean.body.data).toMatchObject({ status: 'published', flaggedWords: [] });
  });

  it('a change of the list is seen at the next post; a disabled word no longer flags', async () => {
    const first = await topic({ content: '代开发票' });
    expect(first.body.data.status).toBe('published');
    const word = await api.post('/api/admin/sensitiveWords', { word: '代开发票', category: 'ad' });
    expect(word.status, word.text).toBe(200);
    expect((await topic({ content: '代 开 发 票' })).body.data.flaggedWords).toEqual(['代开发票']);
    await api.patch(`/api/admin/sensitiveWords/${word.body.data.id}`, {
      enabled: false,
      updatedAt: word.body.data.updatedAt,
    });
    expect((await topic({ content: '代开发票' })).body.data.status).toBe('published');
  });

  it("another process's cache sees a word written by this one (and a delete)", async () => {
    const other = new WordFilterCache();
    const db = t.app.db as unknown as AnyDb;
    expect((await other.get(db)).words('快来玩百家乐')).toEqual([]);
    const word = await api.post('/api/admin/sensitiveWords', { word: '百家乐', category: 'gambling' });
    expect((await other.get(db)).words('快来玩百家乐')).toEqual(['百家乐']);
    await api.del(`/api/admin/sensitiveWords/${word.body.data.id}`);
    expect((await other.get(db)).words('快来玩百家乐')).toEqual([]);
  });

  it('bulk import refuses an empty or over-long list in Chinese, and changes nothing', async () => {
    const count = async () => (await api.get('/api/admin/sensitiveWords?limit=1')).body.data.count;
    const n = await count();
    const empty = await api.post('/api/admin/sensitiveWords/importWords', {
      words: ' \n。\n',
      category: 'ad',
    });
    expect(empty.status).toBe(422);
    expect(empty.body.data.fields).toEqual({ words: '请至少输入一个敏感词' });
    const long = await api.post('/api/admin/sensitiveWords/importWords', {
      words: `好词\n${'长'.repeat(51)}`,
      category: 'ad',
    });
    expect(long.status).toBe(422);
    expect(await count()).toBe(n);
  });

  it('seeded rows are history: inserted as given, not checked', async () => {
    const engine = engineExtensions();
    expect(engine.hooksOf('bbsTopics').afterCreate).toBeDefined();
    const [id] = await t.app.resources.insertRows(getResource('bbsTopics'), [
      { nodeId, authorId: author, title: '旧帖', content: '加微信', status: 'published' },
    ]);
    expect((await api.get(`/api/admin/bbsTopics/${id}`)).body.data.status).toBe('published');
  });
});
