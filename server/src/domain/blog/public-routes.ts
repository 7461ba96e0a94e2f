/**
 * The blog and gallery for visitors, no login (API.md "Public"):
 *
 *   GET /api/public/articles?page=&limit=&tag=   published articles, newest first
 *   GET /api/public/articles/{id}                 one published article with its body as safe HTML;
 *                                                 each GET counts one view
 *   GET /api/public/photos?page=&limit=&album=&tag=   published photos, newest taken (or added) first
 *
 * Drafts, hidden photos and deleted rows are never answered: to a visitor they do not exist.
 */

import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { inlineLimit } from '../../db/limit.js';
import { readTogether } from '../../db/together.js';
import { JSON_CONTENT_TYPE, notFound, ok, okBytes } from '../../http/envelope.js';
import { failureEnvelopeSchema, successEnvelopeSchema } from '../../http/schemas.js';
import { cachedCount, cachedValue, VersionedKeeper } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { ownMemory } from '../../resources/own-memory.js';
import { likePattern } from '../../resources/query.js';
import { type DbRow, isoOf } from '../../resources/storage.js';
import { type ImageRow, imageInfoFilling, imageInfoRead, STORED_IMAGES } from './images.js';
import { RenderCache } from './markdown.js';

export const ARTICLE_NOT_FOUND = '文章不存在或未发布';
export const DEFAULT_ARTICLES_PER_PAGE = 10;
export const DEFAULT_PHOTOS_PER_PAGE = 24;
const MAX_LIMIT = 50;
const MAX_PAGE = 10_000;

const pageSchema = {
  type: 'object',
  required: ['total', 'page', 'limit'],
  properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' } },
} as const;

const tagsSchema = { type: 'array', items: { type: 'string' } } as const;

const articleSummarySchema = {
  type: 'object',
  required: ['id', 'title', 'summary', 'cover', 'coverThumb', 'tags', 'publishedAt', 'views'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    summary: { type: 'string' },
    cover: { type: ['string', 'null'], description: '封面图地址（/api/files/… 或外链）' },
    coverThumb: { type: ['string', 'null'], description: '封面缩略图；没有时等于 cover' },
    tags: tagsSchema,
    publishedAt: { type: ['string', 'null'], format: 'date-time' },
    views: { type: 'integer' },
  },
} as const;

const neighbourSchema = {
  type: ['object', 'null'],
  properties: { id: { type: 'integer' }, title: { type: 'string' } },
} as const;

const articleSchema = {
  type: 'object',
  required: [...articleSummarySchema.required, 'html', 'updatedAt', 'newer', 'older'],
  properties: {
    ...articleSummarySchema.properties,
    html: { type: 'string', description: '由 Markdown 渲染并按白名单净化的 HTML' },
    updatedAt: { type: 'string', format: 'date-time' },
    newer: { ...neighbourSchema, description: '上一篇（更新发布的一篇）' },
    older: { ...neighbourSchema, description: '下一篇（更早发布的一篇）' },
  },
} as const;

const photoSchema = {
  type: 'object',
  required: ['id', 'title', 'album', 'tags', 'takenAt', 'thumbUrl', 'url', 'width', 'height'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    album: { type: ['string', 'null'] },
    tags: tagsSchema,
    takenAt: { type: ['string', 'null'], format: 'date-time' },
    thumbUrl: { type: 'string', description: '缩略图；没有时等于 url' },
    url: { type: 'string', description: '原图' },
    width: { type: ['integer', 'null'], description: '原图宽（像素），未知时为 null' },
    height: { type: ['integer', 'null'] },
  },
} as const;

const listQuery = (extra: Record<string, object>, defaultLimit: number) =>
  ({
    type: 'object',
    additionalProperties: false,
    properties: {
      page: {
        type: 'integer',
        title: '页码',
        minimum: 1,
        maximum: MAX_PAGE,
        default: 1,
        description: '页码，从 1 开始',
      },
      limit: {
        type: 'integer',
        title: '每页条数',
        minimum: 1,
        maximum: MAX_LIMIT,
        default: defaultLimit,
        description: `每页条数，最多 ${MAX_LIMIT}`,
      },
      ...extra,
    },
  }) as const;

const tagQuery = {
  type: 'string',
  title: '标签',
  minLength: 1,
  maxLength: 20,
  description: '只看带此标签的',
} as const;

interface ArticleRow {
  id: number | string;
  title: string;
  summary: string | null;
  cover: string | null;
  tags: string | null;
  published_at: number | string | null;
  views: number | string | null;
}

function parseTags(text: string | null): string[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const TOP_TAGS = 30;

/** The most used tags, most used first (ties by name), from every published article's tags. */
function topTags(rows: readonly { tags: string | null }[]): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const tag of new Set(parseTags(row.tags))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh-CN'))
    .slice(0, TOP_TAGS)
    .map(([name, count]) => ({ name, count }));
}

/** A JSON list column that holds `value` (the engine's own "contains" test, README "Lists"). */
const listHolds = (column: string, value: string) =>
  sql<boolean>`(${sql.ref(column)} like ${likePattern(JSON.stringify(value))} escape '!')`;

function positiveId(text: string): number | null {
  if (!/^[1-9][0-9]{0,14}$/.test(text)) return null;
  return Number(text);
}

/**
 * A gallery photo's thumbnail by its image's URL (null: no photo of it has one), for covers; every
 * article shown read it (one statement in eight of the load bench's mix — BENCHMARKS.md, twelfth
 * session).
 */
const photoThumbs = new VersionedKeeper<string | null>('photos', 5_000);
/**
 * An article's newer and older neighbours, by its id: two statements with every article read (a
 * view counted changes no neighbour, and bumps no version).
 */
const neighbours = new VersionedKeeper<[ArticleLink | null, ArticleLink | null]>('articles', 5_000);

/**
 * The gallery's answers by query, as sent: the same few pages are asked for again and again by
 * every visitor, and each was a read of the page's rows, what is known of their images and their
 * JSON written again — the kinds of call the public site makes most (BENCHMARKS.md, twenty-second
 * session). Kept by the rules of what they are made of: the photos' version and the stored
 * images' (an upload here: images.ts `STORED_IMAGES`) in this process, at most 10 s old for
 * another process's writes (resources/counts.ts). At most `KEPT_GALLERY_PAGES`, oldest out first,
 * so a crawler asking for every page and tag costs memory once.
 */
const KEPT_GALLERY_PAGES = 500;
const galleryAnswers = new VersionedKeeper<Buffer>(['photos', STORED_IMAGES], KEPT_GALLERY_PAGES);

/**
 * The article list's answers by query, as sent, for at most `VIEWS_SHOWN_WITHIN_MS`: the list is
 * the public site's most asked JSON (the home and its pages), and each answer was a read of the
 * page's rows and their JSON written again. An edit through the back office shows at once (the
 * articles' version); a view counted moves no version — at 1–2 a second per article under load
 * one would keep nothing — so the views a list shows are at most a second behind the article's
 * own page, which counts and shows them exactly. At most `KEPT_LIST_PAGES`, oldest out first.
 */
export const VIEWS_SHOWN_WITHIN_MS = 1_000;
const KEPT_LIST_PAGES = 500;
const articleListAnswers = new VersionedKeeper<Buffer>(
  ['articles', 'photos', STORED_IMAGES],
  KEPT_LIST_PAGES,
  undefined,
  VIEWS_SHOWN_WITHIN_MS,
);

interface ArticleLink {
  id: number;
  title: string;
}

/**
 * The thumbnails of articles' covers: a stored image's own, or — for a cover picked from the
 * gallery — its photo's. Both reads at once (db/together.ts), sent with others by the caller;
 * what is kept (above, and images.ts) is not read.
 */
function coverThumbReads(db: AnyDb, covers: readonly (string | null)[], now: number) {
  const wanted = [...new Set(covers.filter((c): c is string => !!c))];
  const images = imageInfoRead(db, wanted);
  const version = photoThumbs.version(db);
  const fromPhotos = new Map<string, string | null>();
  const unknown: string[] = [];
  // A cover whose stored image is known to have its own thumbnail needs no photo's.
  for (const url of wanted) {
    if (images.kept.get(url)?.thumbUrl) continue;
    const hit = photoThumbs.get(db, url, now);
    if (hit) fromPhotos.set(url, hit.value);
    else unknown.push(url);
  }
  const photos =
    unknown.length === 0
      ? null
      : db
          .selectFrom('photos')
          .select(['image', 'thumbnail'])
          .where('image', 'in', unknown)
          .where('thumbnail', 'is not', null);
  return {
    queries: [images.query, photos] as const,
    thumbs(imageRows: readonly DbRow[], photoRows: readonly DbRow[]): Map<string, string> {
      for (const url of unknown) fromPhotos.set(url, null);
      for (const row of photoRows) {
        const url = row.image as string;
        if (fromPhotos.get(url) === null) fromPhotos.set(url, row.thumbnail as string);
      }
      for (const url of unknown) photoThumbs.set(db, url, fromPhotos.get(url) ?? null, version, now);
      const out = new Map<string, string>();
      for (const [url, info] of images.info(imageRows as unknown as readonly ImageRow[]))
        if (info.thumbUrl) out.set(url, info.thumbUrl);
      for (const [url, thumb] of fromPhotos) if (thumb && !out.has(url)) out.set(url, thumb);
      return out;
    },
  };
}

async function coverThumbs(
  db: AnyDb,
  covers: readonly (string | null)[],
  now: number,
): Promise<Map<string, string>> {
  const reads = coverThumbReads(db, covers, now);
  const [images, photos] = await readTogether(db, reads.queries);
  return reads.thumbs(images as DbRow[], photos as DbRow[]);
}

function articleSummary(row: ArticleRow, thumbs: Map<string, string>) {
  return {
    id: Number(row.id),
    title: row.title,
    summary: row.summary ?? '',
    cover: row.cover || null,
    coverThumb: row.cover ? (thumbs.get(row.cover) ?? row.cover) : null,
    tags: parseTags(row.tags),
    publishedAt: isoOf(row.published_at),
    views: Number(row.views ?? 0),
  };
}

export const blogPublicRoutes: FastifyPluginAsync = async (app) => {
  // The registry's tables are not in the typed schema (resources/extensions.ts).
  const db = app.db as unknown as AnyDb;
  const rendered = new RenderCache();

  const publishedArticles = () =>
    db.selectFrom('articles').where('status', '=', 'published').where('deleted_at', 'is', null);

  app.get<{ Querystring: { page: number; limit: number; tag?: string } }>(
    '/api/public/articles',
    {
      preHandler: app.admit,
      schema: {
        tags: ['public'],
        summary: '已发布的文章（最新在前）',
        querystring: listQuery({ tag: tagQuery }, DEFAULT_ARTICLES_PER_PAGE),
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            required: ['results', 'page', 'tags'],
            properties: {
              results: { type: 'array', items: articleSummarySchema },
              page: pageSchema,
              tags: {
                type: 'array',
                description: `所有已发布文章最常用的标签（最多 ${TOP_TAGS} 个）及篇数，多的在前`,
                items: {
                  type: 'object',
                  properties: { name: { type: 'string' }, count: { type: 'integer' } },
                },
              },
            },
          }),
          422: { description: '查询参数不合规', ...failureEnvelopeSchema },
        },
      },
    },
    async (request, reply) => {
      const { page, limit, tag } = request.query;
      const now = app.config.now();
      const key = JSON.stringify([page, limit, tag ?? null]);
      const kept = articleListAnswers.get(db, key, now);
      if (kept) return reply.type(JSON_CONTENT_TYPE).send(kept.value);
      const version = articleListAnswers.version(db);
      let base = publishedArticles();
      if (tag) base = base.where(listHolds('tags', tag));
      // The total and the tag cloud (every published article's tags: a read of them all) are
      // kept as the admin lists' totals are (resources/counts.ts): read again after any write
      // to articles through the engine in this process, at most 10 s old otherwise. A view
      // counted changes neither; the rows, with their views, are read for each answer made. A
      // total by tag is counted for each answer made: a key per tag anyone may type would let
      // visitors push the admin lists' kept totals out of the shared cache.
      const count = async () =>
        Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const [rows, total, tags] = await Promise.all([
        base
          .select(['id', 'title', 'summary', 'cover', 'tags', 'published_at', 'views'])
          .orderBy('published_at', (ob) => ob.desc().nullsLast())
          .orderBy('id', 'desc')
          .limit(inlineLimit(limit))
          .offset((page - 1) * limit)
          .execute() as Promise<ArticleRow[]>,
        tag ? count() : cachedCount(db, 'articles', 'public:articles:count', now, count),
        cachedValue(db, 'articles', 'public:articles:tags', now, async () =>
          topTags((await publishedArticles().select('tags').execute()) as { tags: string | null }[]),
        ),
      ]);
      const thumbs = await coverThumbs(
        db,
        rows.map((r) => r.cover),
        now,
      );
      const answer = okBytes({
        results: rows.map((row) => articleSummary(row, thumbs)),
        page: { total, page, limit },
        tags,
      });
      articleListAnswers.set(db, key, ownMemory(answer), version, now);
      return reply.type(JSON_CONTENT_TYPE).send(answer);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/public/articles/:id',
    {
      preHandler: app.admit,
      schema: {
        tags: ['public'],
        summary: '一篇已发布的文章（正文为安全的 HTML；每次读取计一次阅读）',
        params: {
          type: 'object',
          properties: { id: { type: 'string', title: '文章', maxLength: 32 } },
          required: ['id'],
        },
        response: {
          200: successEnvelopeSchema(articleSchema),
          404: { description: ARTICLE_NOT_FOUND, ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const id = positiveId(request.params.id);
      if (id === null) throw notFound(ARTICLE_NOT_FOUND);
      // One statement counts the view and reads the row: concurrent readers never lose a count,
      // and a draft or deleted article is neither counted nor answered.
      const row = (await db
        .updateTable('articles')
        .set({ views: sql`coalesce(views, 0) + 1` })
        .where('id', '=', id)
        .where('status', '=', 'published')
        .where('deleted_at', 'is', null)
        .returning([
          'id',
          'title',
          'summary',
          'cover',
          'tags',
          'published_at',
          'views',
          'content',
          'updated_at',
        ])
        .executeTakeFirst()) as
        | (ArticleRow & { content: string | null; updated_at: number | string })
        | undefined;
      if (!row) throw notFound(ARTICLE_NOT_FOUND);

      const publishedAt = row.published_at === null ? null : Number(row.published_at);
      const neighbour = (direction: 'newer' | 'older') => {
        if (publishedAt === null) return null;
        const newer = direction === 'newer';
        return publishedArticles()
          .select(['id', 'title'])
          .where((eb) =>
            eb.or([
              eb('published_at', newer ? '>' : '<', publishedAt),
              eb.and([eb('published_at', '=', publishedAt), eb('id', newer ? '>' : '<', id)]),
            ]),
          )
          .orderBy('published_at', newer ? 'asc' : 'desc')
          .orderBy('id', newer ? 'asc' : 'desc')
          .limit(inlineLimit(1));
      };
      const linkOf = (rows: readonly DbRow[]): ArticleLink | null => {
        const next = rows[0] as { id: number | string; title: string } | undefined;
        return next ? { id: Number(next.id), title: next.title } : null;
      };
      // The cover's thumbnail and both neighbours, what is not kept of them: one round trip
      // (db/together.ts).
      const now = app.config.now();
      const key = `${id}:${publishedAt}`;
      const version = neighbours.version(db);
      const kept = neighbours.get(db, key, now);
      const cover = coverThumbReads(db, [row.cover], now);
      const [images, photos, newerRows, olderRows] = await readTogether(db, [
        ...cover.queries,
        kept ? null : neighbour('newer'),
        kept ? null : neighbour('older'),
      ]);
      const thumbs = cover.thumbs(images as DbRow[], photos as DbRow[]);
      const [newer, older] = kept?.value ?? [linkOf(newerRows as DbRow[]), linkOf(olderRows as DbRow[])];
      if (!kept) neighbours.set(db, key, [newer, older], version, now);
      return ok({
        ...articleSummary(row, thumbs),
        html: rendered.get(id, Number(row.updated_at), row.content ?? ''),
        updatedAt: isoOf(row.updated_at),
        newer,
        older,
      });
    },
  );

  app.get<{ Querystring: { page: number; limit: number; album?: string; tag?: string } }>(
    '/api/public/photos',
    {
      preHandler: app.admit,
      schema: {
        tags: ['public'],
        summary: '公开的图片（拍摄时间最新在前，没有拍摄时间的按上传时间），带缩略图与尺寸',
        querystring: listQuery(
          {
            album: { type: 'string', title: '相册', minLength: 1, maxLength: 50, description: '只看此相册' },
            tag: tagQuery,
          },
          DEFAULT_PHOTOS_PER_PAGE,
        ),
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            required: ['results', 'page', 'albums'],
            properties: {
              results: { type: 'array', items: photoSchema },
              page: pageSchema,
              albums: {
                type: 'array',
                description: '所有公开图片的相册及其图片数（筛选用）',
                items: {
                  type: 'object',
                  properties: { name: { type: 'string' }, count: { type: 'integer' } },
                },
              },
            },
          }),
          422: { description: '查询参数不合规', ...failureEnvelopeSchema },
        },
      },
    },
    async (request, reply) => {
      const { page, limit, album, tag } = request.query;
      const now = app.config.now();
      const key = JSON.stringify([page, limit, album ?? null, tag ?? null]);
      const kept = galleryAnswers.get(db, key, now);
      if (kept) return reply.type(JSON_CONTENT_TYPE).send(kept.value);
      const version = galleryAnswers.version(db);
      const visible = () => db.selectFrom('photos').where('status', '=', 'published');
      let base = visible();
      if (album) base = base.where('album', '=', album);
      if (tag) base = base.where(listHolds('tags', tag));
      // The albums with their counts (a read of every published photo) and the total are kept as
      // the articles' total and tag cloud are (above): read again after any write to photos
      // through the engine in this process, at most 10 s old otherwise. An album's total is its
      // count there; a total by tag is counted each time, for the reason the articles' is.
      const albumsNow = cachedValue(db, 'photos', 'public:photos:albums', now, async () =>
        (
          await visible()
            .select(['album', (eb) => eb.fn.countAll().as('n')])
            .where('album', 'is not', null)
            .where('album', '<>', '')
            .groupBy('album')
            .orderBy('album')
            .execute()
        ).map((a) => ({ name: a.album as string, count: Number(a.n) })),
      );
      const count = async () =>
        Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const [rows, total, albums] = await Promise.all([
        base
          .select(['id', 'title', 'album', 'tags', 'taken_at', 'image', 'thumbnail'])
          // A photo without a date taken counts from when it was added: a new upload shows first.
          .orderBy(sql`coalesce(taken_at, created_at)`, 'desc')
          .orderBy('id', 'desc')
          .limit(inlineLimit(limit))
          .offset((page - 1) * limit)
          .execute(),
        tag
          ? count()
          : album
            ? albumsNow.then((all) => all.find((a) => a.name === album)?.count ?? 0)
            : cachedCount(db, 'photos', 'public:photos:count', now, count),
        albumsNow,
      ]);
      const info = await imageInfoFilling(
        db,
        app.blobs,
        rows.map((r) => r.image as string),
        app.config.now(),
      );
      const answer = okBytes({
        results: rows.map((row) => {
          const url = row.image as string;
          const size = info.get(url);
          return {
            id: Number(row.id),
            title: row.title as string,
            album: (row.album as string | null) || null,
            tags: parseTags(row.tags as string | null),
            takenAt: isoOf(row.taken_at),
            thumbUrl: (row.thumbnail as string | null) || size?.thumbUrl || url,
            url,
            width: size?.width ?? null,
            height: size?.height ?? null,
          };
        }),
        page: { total, page, limit },
        albums,
      });
      galleryAnswers.set(db, key, ownMemory(answer), version, now);
      return reply.type(JSON_CONTENT_TYPE).send(answer);
    },
  );
};
