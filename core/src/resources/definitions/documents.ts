/**
 * The document and lawyer library (DOMAIN.md "documents"): categories, documents split into
 * pages, tags and tagging rules, search logs, lawyers, work tools and invitation codes.
 * law/doc_review is the documents in review (a view of docs).
 *
 * Arrive with the document pipeline: docs import/split of a body into pages, docTagRules retagAll
 * (a job over every document), docSearchLogs topQueries and testSearch (answers a report, not a row).
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { enabledStatus, PATTERNS, readOnlyFields, TAG_COLORS, transition } from './common';

export const docCategories = defineResource({
  name: 'docCategories',
  title: '文档分类',
  route: 'law/doc/category',
  area: 'law',
  displayField: 'name',
  defaultSort: 'sort',
  fields: {
    name: f.string('分类名称', { required: true, max: 30, searchable: true }),
    parentId: f.relation('上级分类', 'docCategories'),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
  },
});

export const docs = defineResource({
  name: 'docs',
  title: '文档',
  route: 'law/doc',
  area: 'law',
  displayField: 'title',
  softDelete: true,
  indexes: [
    ['categoryId', '-publishDate'],
    ['status', '-updatedAt'],
  ],
  views: [{ route: 'law/doc_review', filters: { status: 'reviewing' }, title: '待审核文档' }],
  fields: {
    title: f.string('标题', { required: true, max: 200, searchable: true, sortable: true }),
    docNo: f.string('文号', { max: 100, searchable: true, help: '如 中华人民共和国主席令第四十五号' }),
    categoryId: f.relation('分类', 'docCategories', { required: true }),
    issuer: f.string('制定机关', { max: 100, filterable: true, searchable: true }),
    publishDate: f.date('公布日期', { sortable: true, filterable: true }),
    effectiveDate: f.date('施行日期', { sortable: true, filterable: true }),
    validity: f.enum(
      '时效性',
      options(
        ['effective', '现行有效', 'green'],
        ['amended', '已被修改', 'orange'],
        ['repealed', '已废止', 'red'],
      ),
      { required: true, default: 'effective' },
    ),
    tags: f.relationList('标签', 'docTags', { max: 20 }),
    summary: f.text('摘要', { max: 1000, searchable: true }),
    pageCount: f.integer('页数', { readOnly: true, sortable: true }),
    views: f.integer('阅读数', { readOnly: true, sortable: true }),
    status: f.enum(
      '状态',
      options(
        ['draft', '草稿', 'default'],
        ['reviewing', '审核中', 'orange'],
        ['published', '已发布', 'green'],
      ),
      { readOnly: true, default: 'draft' },
    ),
    publishedAt: f.datetime('上线时间', { readOnly: true, sortable: true, hideInList: true }),
  },
  actions: [
    transition('submit', '提交审核', ['draft'], 'reviewing'),
    transition('publish', '审核通过并发布', ['reviewing'], 'published', { set: { publishedAt: 'now' } }),
    transition('reject', '退回修改', ['reviewing'], 'draft'),
    transition('unpublish', '下线', ['published'], 'draft', {
      confirm: '下线后前台不再显示这份文档，确定下线？',
      set: { publishedAt: null },
    }),
  ],
});

export const docPages = defineResource({
  name: 'docPages',
  title: '文档详情',
  route: 'law/doc_page',
  area: 'law',
  displayField: 'pageNo',
  defaultSort: 'pageNo',
  indexes: [['docId', 'pageNo']],
  fields: {
    docId: f.relation('文档', 'docs', { required: true }),
    pageNo: f.integer('页码', { required: true, min: 1, max: 100_000, sortable: true, filterable: true }),
    content: f.text('正文', { required: true, max: 100_000, searchable: true }),
  },
});

export const docTags = defineResource({
  name: 'docTags',
  title: '文档标签',
  route: 'law/doc_tag',
  area: 'law',
  displayField: 'name',
  fields: {
    name: f.string('标签', { required: true, max: 20, unique: true, searchable: true }),
    color: f.enum('颜色', TAG_COLORS, { default: 'blue', filterable: false }),
  },
});

export const docTagRules = defineResource({
  name: 'docTagRules',
  title: '打标规则',
  route: 'law/doc_tag_rule',
  area: 'law',
  displayField: 'keyword',
  fields: {
    keyword: f.string('关键词', { required: true, max: 50, searchable: true }),
    tagId: f.relation('打上标签', 'docTags', { required: true }),
    scope: f.enum('匹配范围', options(['title', '仅标题'], ['all', '标题、摘要和正文']), {
      required: true,
      default: 'all',
    }),
    status: enabledStatus(),
  },
});

export const docSearchLogs = defineResource({
  name: 'docSearchLogs',
  title: '文档搜索',
  route: 'law/doc_search',
  area: 'law',
  displayField: 'q',
  readOnly: true,
  indexes: [['q'], ['hits', '-createdAt']],
  fields: readOnlyFields({
    q: f.string('搜索词', { filterable: true, searchable: true }),
    userId: f.relation('用户', 'users'),
    hits: f.integer('结果数', { sortable: true, filterable: true }),
    tookMs: f.integer('耗时（毫秒）', { sortable: true, filterable: true }),
  }),
});

export const LAWYER_SPECIALTIES = options(
  ['criminal', '刑事辩护'],
  ['marriage', '婚姻家事'],
  ['labor', '劳动争议'],
  ['contract', '合同纠纷'],
  ['corporate', '公司法务'],
  ['ip', '知识产权'],
  ['realEstate', '房产建筑'],
  ['traffic', '交通事故'],
  ['debt', '债权债务'],
  ['administrative', '行政诉讼'],
  ['finance', '金融证券'],
  ['tax', '财税'],
);

export const lawyers = defineResource({
  name: 'lawyers',
  title: '律师',
  route: 'law/lawyer',
  area: 'law',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('姓名', { required: true, max: 20, searchable: true }),
    firm: f.string('执业机构', { required: true, max: 100, searchable: true }),
    licenseNo: f.string('执业证号', {
      required: true,
      unique: true,
      max: 17,
      pattern: PATTERNS.lawyerLicence,
      patternMessage: '须为 17 位数字',
      searchable: true,
      help: '17 位数字',
    }),
    city: f.string('城市', { required: true, max: 20, filterable: true }),
    specialties: f.enumList('擅长领域', LAWYER_SPECIALTIES, { min: 1, max: 5, filterable: true }),
    years: f.integer('执业年限', { min: 0, max: 70, sortable: true, filterable: true }),
    phone: f.phone('联系电话', { hideInList: true }),
    avatar: f.image('照片', { hideInList: true }),
    status: f.enum(
      '状态',
      options(
        ['pending', '待认证', 'orange'],
        ['verified', '已认证', 'green'],
        ['rejected', '未通过', 'red'],
      ),
      { readOnly: true, default: 'pending' },
    ),
    verifiedAt: f.datetime('认证时间', { readOnly: true, sortable: true, hideInList: true }),
  },
  actions: [
    transition('verify', '认证通过', ['pending', 'rejected'], 'verified', { set: { verifiedAt: 'now' } }),
    transition('reject', '不予认证', ['pending', 'verified'], 'rejected', {
      danger: true,
      set: { verifiedAt: null },
    }),
  ],
});

export const workTools = defineResource({
  name: 'workTools',
  title: '工作工具',
  route: 'law/work_tool',
  area: 'law',
  displayField: 'name',
  defaultSort: 'sort',
  fields: {
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    kind: f.enum(
      '类型',
      options(
        ['calculator', '计算器', 'blue'],
        ['template', '文书模板', 'purple'],
        ['link', '外部链接', 'cyan'],
      ),
      { required: true },
    ),
    url: f.url('链接', { help: '外部链接或计算器页面地址' }),
    content: f.markdown('内容', { max: 100_000, help: '文书模板的正文（Markdown）' }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
    status: enabledStatus(),
  },
});

/**
 * Roles an invitation may grant. Never admin, and nothing beyond what the law library's own
 * editors hold (an auditor reads every area): `member` is a front-site account with no
 * back-office role.
 */
export const INVITE_ROLES = options(['member', '普通会员', 'default'], ['editor', '编辑', 'blue']);

export const invites = defineResource({
  name: 'invites',
  title: '邀请码',
  route: 'law/invite',
  area: 'law',
  displayField: 'code',
  fields: {
    code: f.string('邀请码', {
      required: true,
      createOnly: true,
      unique: true,
      min: 6,
      max: 32,
      pattern: '^[A-Za-z0-9]+$',
      patternMessage: '只能包含字母和数字',
      searchable: true,
    }),
    role: f.enum('授予角色', INVITE_ROLES, { required: true, default: 'member' }),
    maxUses: f.integer('可用次数', { required: true, min: 1, max: 10_000, default: 1 }),
    used: f.integer('已使用', { readOnly: true, sortable: true }),
    expiresAt: f.datetime('过期时间', { sortable: true, filterable: true }),
  },
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [
  docCategories,
  docs,
  docPages,
  docTags,
  docTagRules,
  docSearchLogs,
  lawyers,
  workTools,
  invites,
];
