/** The blog (DOMAIN.md "Community, content"): articles and photos shown on the public site. */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { transition, VISIBILITY } from './common';

export const articles = defineResource({
  name: 'articles',
  title: '文章',
  route: 'blog/article',
  area: 'blog',
  displayField: 'title',
  softDelete: true,
  indexes: [['status', '-publishedAt']],
  fields: {
    title: f.string('标题', { required: true, max: 100, searchable: true, sortable: true }),
    cover: f.image('封面', { hideInList: true }),
    summary: f.text('摘要', { max: 300, searchable: true }),
    content: f.markdown('正文', { required: true, help: 'Markdown；发布时渲染为安全的 HTML' }),
    tags: f.stringList('标签', { max: 10, itemMax: 20, searchable: true }),
    status: f.enum('状态', options(['draft', '草稿', 'default'], ['published', '已发布', 'green']), {
      readOnly: true,
      default: 'draft',
    }),
    publishedAt: f.datetime('发布时间', { readOnly: true, sortable: true, filterable: true }),
    views: f.integer('阅读数', { readOnly: true, sortable: true }),
  },
  actions: [
    transition('publish', '发布', ['draft'], 'published', { set: { publishedAt: 'now' } }),
    transition('unpublish', '撤回', ['published'], 'draft', {
      confirm: '撤回后前台不再显示这篇文章，确定撤回？',
    }),
  ],
});

export const photos = defineResource({
  name: 'photos',
  title: '图片',
  route: 'blog/photo',
  area: 'blog',
  displayField: 'title',
  defaultSort: '-takenAt',
  fields: {
    title: f.string('标题', { required: true, max: 100, searchable: true }),
    image: f.image('图片', { required: true }),
    thumbnail: f.image('缩略图', { readOnly: true, hideInList: true, help: '上传时自动生成' }),
    album: f.string('相册', { max: 50, filterable: true, searchable: true }),
    tags: f.stringList('标签', { max: 10, itemMax: 20, searchable: true }),
    takenAt: f.datetime('拍摄时间', { sortable: true, filterable: true }),
    status: f.enum('状态', VISIBILITY, { default: 'published' }),
  },
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [articles, photos];
