/**
 * Community (DOMAIN.md "Community"): nodes, topics and their replies, tags, points, chat bots.
 * bbs/review is the moderation queue: the pending topics and posts (views below) with approve
 * and reject.
 *
 * New topics and replies go through the sensitive-word filter (core/src/community): clean ones
 * are published at once, hits wait in bbs/review with the words found. The moderation rule —
 * which action applies from which status, and the points it moves — is core's `moderate`
 * (community/moderation.ts); the actions below take their states from it.
 *
 * The chat bots' test reply is a route of its own (POST /api/admin/chatBots/:id/reply): it
 * answers a reply, not a row, so it is no registry action.
 */
import { MODERATION_ACTION_FROM } from '../../community/moderation';
import type { ActionDef } from '../define';
import { defineResource } from '../define';
import { f, options } from '../fields';
import { readOnlyFields, TAG_COLORS } from './common';

export const bbsNodes = defineResource({
  name: 'bbsNodes',
  title: '分类',
  route: 'bbs/node',
  area: 'bbs',
  displayField: 'name',
  defaultSort: 'sort',
  fields: {
    name: f.string('分类名称', { required: true, max: 20, unique: true, searchable: true }),
    parentId: f.relation('上级分类', 'bbsNodes'),
    description: f.text('简介', { max: 500 }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
  },
});

export const MODERATION_STATUS = options(
  ['pending', '待审核', 'orange'],
  ['published', '已发布', 'green'],
  ['rejected', '已驳回', 'red'],
  ['deleted', '已删除', 'default'],
);

/** Fields the moderation queue shows: what the filter flagged, who reported, why it was rejected. */
const moderation = {
  flaggedWords: f.stringList('命中敏感词', { readOnly: true, hideInList: true }),
  reporterId: f.relation('举报人', 'users', { readOnly: true, hideInList: true }),
  reportReason: f.string('举报理由', { readOnly: true, max: 200, hideInList: true }),
  rejectReason: f.string('驳回原因', { readOnly: true, max: 200, hideInList: true }),
};

// Handlers (server/src/domain/community): each status change appends the author's points rows
// in its transaction, as core's moderate() says.
const moderationActions: readonly ActionDef[] = [
  {
    name: 'approve',
    label: '通过',
    effect: { kind: 'handler', when: { status: MODERATION_ACTION_FROM.approve } },
  },
  {
    name: 'reject',
    label: '驳回',
    danger: true,
    // Stores the reason in rejectReason and sets status rejected.
    input: { reason: f.text('驳回原因', { required: true, max: 200 }) },
    effect: { kind: 'handler', when: { status: MODERATION_ACTION_FROM.reject } },
  },
];

const pendingQueue = { route: 'bbs/review', filters: { status: 'pending' } } as const;

export const bbsTopics = defineResource({
  name: 'bbsTopics',
  title: '帖子',
  route: 'bbs/topic',
  area: 'bbs',
  displayField: 'title',
  softDelete: true,
  indexes: [
    ['nodeId', '-createdAt'],
    ['status', '-createdAt'],
  ],
  views: [{ ...pendingQueue, title: '待审核帖子' }],
  fields: {
    nodeId: f.relation('分类', 'bbsNodes', { required: true }),
    authorId: f.relation('作者', 'users', { required: true }),
    title: f.string('标题', { required: true, min: 2, max: 100, searchable: true }),
    content: f.markdown('内容', { required: true, max: 50_000, searchable: true }),
    tags: f.relationList('标签', 'bbsTags', { max: 5 }),
    pinned: f.boolean('置顶', { filterable: true, sortable: true }),
    locked: f.boolean('锁定', { filterable: true, help: '锁定后不能再回帖' }),
    replies: f.integer('回帖数', { readOnly: true, sortable: true }),
    views: f.integer('浏览数', { readOnly: true, sortable: true }),
    status: f.enum('状态', MODERATION_STATUS, { readOnly: true, default: 'pending' }),
    ...moderation,
  },
  actions: moderationActions,
});

export const bbsPosts = defineResource({
  name: 'bbsPosts',
  title: '回帖',
  route: 'bbs/article',
  area: 'bbs',
  displayField: 'id',
  softDelete: true,
  indexes: [
    ['topicId', 'createdAt'],
    ['status', '-createdAt'],
  ],
  views: [{ ...pendingQueue, title: '待审核回帖' }],
  fields: {
    topicId: f.relation('所属帖子', 'bbsTopics', { required: true }),
    authorId: f.relation('作者', 'users', { required: true }),
    content: f.text('内容', { required: true, max: 10_000, searchable: true, hideInList: false }),
    status: f.enum('状态', MODERATION_STATUS, { readOnly: true, default: 'pending' }),
    ...moderation,
  },
  actions: moderationActions,
});

export const bbsTags = defineResource({
  name: 'bbsTags',
  title: '标签',
  route: 'bbs/tag',
  area: 'bbs',
  displayField: 'name',
  fields: {
    name: f.string('标签名称', { required: true, max: 20, unique: true, searchable: true }),
    color: f.enum('颜色', TAG_COLORS, { default: 'blue', filterable: false }),
  },
});

export const bbsPoints = defineResource({
  name: 'bbsPoints',
  title: '积分记录',
  route: 'bbs/score',
  area: 'bbs',
  displayField: 'id',
  readOnly: true,
  indexes: [['userId', '-createdAt']],
  fields: readOnlyFields({
    userId: f.relation('用户', 'users'),
    change: f.integer('变动积分', { sortable: true, filterable: true }),
    reason: f.string('原因', { max: 100, searchable: true }),
  }),
});

export const chatBots = defineResource({
  name: 'chatBots',
  title: '聊天机器人',
  route: 'bbs/wechat',
  area: 'bbs',
  displayField: 'name',
  fields: {
    name: f.string('机器人名称', { required: true, max: 30, searchable: true }),
    rules: f.json('关键词回复', {
      required: true,
      shape: 'keywordRules',
      help: '收到包含关键词的消息时自动回复；按顺序匹配第一条',
    }),
    enabled: f.boolean('启用', { default: true, filterable: true }),
  },
});

export const SENSITIVE_WORD_CATEGORY = options(
  ['ad', '广告', 'orange'],
  ['porn', '色情', 'magenta'],
  ['gambling', '赌博', 'volcano'],
  ['politics', '政治', 'red'],
  ['abuse', '辱骂', 'purple'],
  ['other', '其他', 'default'],
);

/**
 * The filter's word list, a tab of bbs/review. The server rebuilds its automaton when the list
 * changes (server/src/domain/community/word-filter.ts).
 */
export const sensitiveWords = defineResource({
  name: 'sensitiveWords',
  title: '敏感词',
  route: 'bbs/review',
  area: 'bbs',
  displayField: 'word',
  defaultSort: 'word',
  fields: {
    word: f.string('敏感词', { required: true, max: 50, unique: true, searchable: true, sortable: true }),
    category: f.enum('分类', SENSITIVE_WORD_CATEGORY, { required: true, default: 'other' }),
    enabled: f.boolean('启用', { default: true, filterable: true }),
  },
  actions: [
    {
      name: 'importWords',
      label: '批量导入',
      scope: 'collection',
      input: {
        words: f.text('敏感词', { required: true, max: 200_000, help: '每行一个；已有的词跳过' }),
        category: f.enum('分类', SENSITIVE_WORD_CATEGORY, { required: true, default: 'other' }),
      },
      effect: { kind: 'handler' },
    },
  ],
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [bbsNodes, bbsTopics, bbsPosts, bbsTags, bbsPoints, chatBots, sensitiveWords];
