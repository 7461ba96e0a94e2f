/**
 * Community moderation in Chromium over the built product (issue 17, "Done when"): a reply
 * with 加 微 信 is flagged by the word filter and waits in bbs/review with the words marked in
 * its text; the moderator's 驳回 needs a reason (Chinese validation), then the reply reads 已驳回
 * and its author has the −5 points row; a clean topic is published at once with its +5. The word
 * list is a tab of the same screen. bbs/wechat: a bot made with the rules form (not JSON), its
 * test box answers with the matching rule. Screenshots of the queue, the word list, the rules
 * editor and the test box.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  type TestPage,
  useToken,
} from './harness';

type Json = Record<string, unknown>;

describe.runIf(browserAvailable())('community moderation (e2e)', () => {
  let session: Session;
  let token: string;
  let view: TestPage;
  let author: number;
  let cleanTopic: Json;
  let flaggedReply: Json;

  const call = async <T = Json>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${session.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as { success: boolean; data: T; message?: string };
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const pointsOf = async (userId: number) =>
    (await call<{ results: Json[] }>('GET', `/api/admin/bbsPoints?userId=${userId}&sort=id`)).results.map(
      (r) => [r.change, r.reason],
    );

  beforeAll(async () => {
    session = await startSession();
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    await call('POST', '/api/admin/sensitiveWords/importWords', {
      words: '加微信\n赌博\n代开发票',
      category: 'ad',
    });
    author = (
      await call<{ id: number }>('POST', '/api/admin/users', {
        username: 'poster_e2e',
        password: 'Poster#2026',
        roles: [],
      })
    ).id;
    const node = await call<{ id: number }>('POST', '/api/admin/bbsNodes', { name: '闲聊' });
    cleanTopic = await call('POST', '/api/admin/bbsTopics', {
      nodeId: node.id,
      authorId: author,
      title: '周末去爬山',
      content: '有人一起去吗？',
    });
    flaggedReply = await call('POST', '/api/admin/bbsPosts', {
      topicId: cleanTopic.id,
      authorId: author,
      content: '我也去！路线详情 加 微 信 发你，顺便问问有没有代开发票的',
    });
    view = await openPage(session);
  });

  afterAll(async () => {
    await view?.close();
    await session?.stop();
  });

  it('a clean topic is published at once with +5; the flagged reply waits with its words', async () => {
    expect(cleanTopic.status).toBe('published');
    expect(flaggedReply).toMatchObject({ status: 'pending', flaggedWords: ['加微信', '代开发票'] });
    expect(await pointsOf(author)).toEqual([[5, `帖子 #${cleanTopic.id} 发布`]]);
  });

  it('bbs/review: the reply with its words marked; 驳回 needs a reason, then 已驳回 and −5', async () => {
    const { page } = view;
    await useToken(page, token);
    await page.goto('/admin/bbs/review');
    const item = page.getByRole('listitem', { name: `回帖 #${flaggedReply.id}` });
    await item.waitFor();
    expect(await item.locator('mark.wx-review-hit').allTextContents()).toEqual(['加 微 信', '代开发票']);
    await expect.poll(() => item.locator('.ant-tag').allTextContents()).toContain('待审核');
    await item.getByText('作者 poster_e2e').waitFor();
    await screenshot(page, 'moderation-review', { fullPage: true });

    await item.getByRole('button', { name: /驳\s?回/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '驳回原因' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /驳\s?回/ }).click();
    await dialog.getByText('请填写驳回原因').waitFor();
    await dialog.getByLabel('驳回原因').fill('含广告引流信息');
    await dialog.getByRole('button', { name: /驳\s?回/ }).click();
    await expect.poll(() => item.locator('.ant-tag').allTextContents()).toContain('已驳回');
    await item.getByText('驳回原因：含广告引流信息').waitFor();
    await screenshot(page, 'moderation-rejected', { fullPage: true });

    const stored = await call<Json>('GET', `/api/admin/bbsPosts/${flaggedReply.id}`);
    expect(stored).toMatchObject({ status: 'rejected', rejectReason: '含广告引流信息' });
    expect(await pointsOf(author)).toEqual([
      [5, `帖子 #${cleanTopic.id} 发布`],
      [-5, `回帖 #${flaggedReply.id} 内容违规扣分`],
    ]);
  });

  it('the word list is a tab of bbs/review', async () => {
    const { page } = view;
    await page.getByRole('tab', { name: '敏感词' }).click();
    const panel = page.getByRole('tabpanel').filter({ visible: true });
    await panel.getByText('代开发票').waitFor();
    await panel.getByText('加微信').waitFor();
    await screenshot(page, 'moderation-words', { fullPage: true });
    expect(view.errors).toEqual([]);
  });

  it('bbs/wechat: rules edited as a form list, the test box answers with the rule that matched', async () => {
    const { page } = view;
    await page.goto('/admin/bbs/wechat');
    await page.getByRole('button', { name: /新建机器人/ }).click();
    const editor = page.getByRole('dialog').filter({ hasText: '新建机器人' });
    await editor.getByLabel('机器人名称').fill('社区助手');
    await editor.getByRole('button', { name: /保\s?存/ }).click();
    await editor.getByText('请填写关键词').waitFor();
    const first = editor.getByRole('group', { name: '规则 1' });
    await first.getByLabel('关键词').fill('积分');
    await first.getByLabel('回复').fill('发布主题 +5，回复 +2，内容违规 -5。');
    await editor.getByRole('button', { name: /添加规则/ }).click();
    const second = editor.getByRole('group', { name: '规则 2' });
    await second.getByLabel('关键词').fill('签到');
    await second.getByLabel('回复').fill('每日签到可获得 1 积分。');
    await screenshot(page, 'chatbot-rules-editor', { fullPage: true });
    await editor.getByRole('button', { name: /保\s?存/ }).click();
    await editor.waitFor({ state: 'hidden' });

    const bots = await call<{ results: Json[] }>('GET', '/api/admin/chatBots');
    expect(bots.results[0]).toMatchObject({
      name: '社区助手',
      rules: [
        { keyword: '积分', reply: '发布主题 +5，回复 +2，内容违规 -5。' },
        { keyword: '签到', reply: '每日签到可获得 1 积分。' },
      ],
    });

    await page
      .getByRole('row', { name: /社区助手/ })
      .getByRole('button', { name: '测试回复' })
      .click();
    const box = page.getByRole('dialog').filter({ hasText: '测试回复' });
    await box.getByLabel('测试消息').fill('怎么 签 到？');
    await box.getByRole('button', { name: /发\s?送/ }).click();
    await box.getByText('每日签到可获得 1 积分。').waitFor();
    await box.getByText('匹配规则 2：关键词「签到」').waitFor();
    await screenshot(page, 'chatbot-test-box', { fullPage: true });
    await box.getByLabel('测试消息').fill('你好');
    await box.getByRole('button', { name: /发\s?送/ }).click();
    await box.getByText('没有匹配的规则，机器人不回复').waitFor();
    expect(view.errors).toEqual([]);
  });
});
