/**
 * Music and movies on the public site (API.md "Public"). Rows are the registry's tracks and
 * movies, read through the resource engine (its filters, keyword search, paging and cached
 * totals); only published, not deleted rows are shown, and only the fields a visitor needs.
 *
 *   GET /api/music                 login  → {results: [track…]}; audio at /api/files/{id} (Range)
 *   GET /api/public/movies?genre=&year=&region=&q=&page=&limit=   → {results, page, years}
 *   GET /api/movies/{id}           login  → one movie with its details and video source
 *   POST /api/admin/media/audio    music:write, multipart `file` → {url, bytes, type} for a track's audio
 */
import { getResource, MOVIE_GENRES, MOVIE_REGIONS } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { registerUploads } from '../../files/uploads.js';
import { invalidInput, notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import type { WireRow } from '../../resources/storage.js';
import { AUDIO_UPLOAD, acceptUpload } from './uploads.js';

/** All published tracks in one answer: a playlist, not a catalogue (the admin list pages). */
export const MAX_TRACKS = 500;
export const MOVIES_PAGE_SIZE = 24;
export const MAX_MOVIES_PAGE_SIZE = 60;

const tracks = getResource('tracks');
const movies = getResource('movies');

const GENRES = new Set(MOVIE_GENRES.map((o) => o.value));
const REGIONS = new Set(MOVIE_REGIONS.map((o) => o.value));

const documentOnly = () => () => true;

const pick = (row: WireRow, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k] ?? null])) as Record<string, unknown>;

const TRACK_FIELDS = ['id', 'title', 'artist', 'album', 'cover', 'audio', 'durationS', 'lyrics'] as const;
const MOVIE_CARD_FIELDS = [
  'id',
  'title',
  'originalTitle',
  'year',
  'director',
  'genres',
  'region',
  'rating',
  'poster',
] as const;
const MOVIE_DETAIL_FIELDS = [...MOVIE_CARD_FIELDS, 'cast', 'synopsis', 'video', 'videoUrl'] as const;

const first = (v: unknown): string | undefined => {
  const value = Array.isArray(v) ? v.at(-1) : v;
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
};

/** The movie filters of a query string, checked with Chinese messages (422 on a bad one). */
export function parseMovieQuery(raw: Record<string, unknown>) {
  const fields: Record<string, string> = {};
  const genre = first(raw.genre);
  if (genre !== undefined && !GENRES.has(genre)) fields.genre = '没有这个类型';
  const region = first(raw.region);
  if (region !== undefined && !REGIONS.has(region)) fields.region = '没有这个地区';
  const yearText = first(raw.year);
  const year = yearText === undefined ? undefined : Number(yearText);
  if (year !== undefined && (!Number.isInteger(year) || year < 1888 || year > 2100))
    fields.year = '年份须为 1888 到 2100 之间的整数';
  const q = first(raw.q);
  if (q !== undefined && q.length > 50) fields.q = '关键词最多 50 个字符';
  const pageText = first(raw.page);
  const page = pageText === undefined ? 1 : Number(pageText);
  if (!Number.isInteger(page) || page < 1 || page > 10_000) fields.page = '页码须为正整数';
  const limitText = first(raw.limit);
  const limit = limitText === undefined ? MOVIES_PAGE_SIZE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MOVIES_PAGE_SIZE)
    fields.limit = `每页条数须为 1 到 ${MAX_MOVIES_PAGE_SIZE} 之间的整数`;
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
  return { genre, region, year, q, page, limit };
}

const trackSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    artist: { type: 'string' },
    album: { type: ['string', 'null'] },
    cover: { type: ['string', 'null'], description: '封面图片 URL' },
    audio: { type: 'string', description: '音频 URL（/api/files/{id}，支持 Range）' },
    durationS: { type: ['integer', 'null'] },
    lyrics: { type: ['string', 'null'], description: 'LRC 或纯文本' },
  },
} as const;

const movieCardSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    originalTitle: { type: ['string', 'null'] },
    year: { type: 'integer' },
    director: { type: ['string', 'null'] },
    genres: { type: ['array', 'null'], items: { type: 'string' } },
    region: { type: ['string', 'null'] },
    rating: { type: ['number', 'null'] },
    poster: { type: ['string', 'null'] },
  },
} as const;

export const mediaRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/music',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['public'],
        summary: '音乐：已发布的曲目（需登录）',
        security: bearerSecurity,
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: { results: { type: 'array', items: trackSchema } },
          }),
          ...authFailureResponses,
        },
      },
    },
    async () => {
      const answer = await app.resources.list(tracks, {
        status: 'published',
        limit: MAX_TRACKS,
        withTotal: 'false',
      });
      return ok({ results: answer.results.filter((r) => r.audio).map((r) => pick(r, TRACK_FIELDS)) });
    },
  );

  app.get(
    '/api/public/movies',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: ['public'],
        summary: '电影：已发布的影片，按类型、年份、地区筛选，关键词搜索片名/原名/导演/主演',
        querystring: {
          type: 'object',
          properties: {
            genre: { type: 'string', enum: MOVIE_GENRES.map((o) => o.value) },
            year: { type: 'integer', title: '年份', minimum: 1888, maximum: 2100 },
            region: { type: 'string', enum: MOVIE_REGIONS.map((o) => o.value) },
            q: { type: 'string', title: '搜索词', maxLength: 50 },
            page: { type: 'integer', title: '页码', minimum: 1, default: 1 },
            limit: {
              type: 'integer',
              title: '每页条数',
              minimum: 1,
              maximum: MAX_MOVIES_PAGE_SIZE,
              default: MOVIES_PAGE_SIZE,
            },
          },
        },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              results: { type: 'array', items: movieCardSchema },
              page: {
                type: 'object',
                properties: {
                  total: { type: 'integer' },
                  page: { type: 'integer' },
                  limit: { type: 'integer' },
                },
              },
              years: { type: 'array', items: { type: 'integer' }, description: '有影片的年份，新到旧' },
            },
          }),
          422: { description: '筛选条件不合规', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const query = parseMovieQuery(request.query as Record<string, unknown>);
      const answer = await app.resources.list(movies, {
        status: 'published',
        genres: query.genre,
        region: query.region,
        year: query.year,
        q: query.q,
        page: query.page,
        limit: query.limit,
        sort: '-year,-rating',
      });
      const years: { year: number | string }[] = await app.resources.db
        .selectFrom('movies')
        .select('year')
        .distinct()
        .where('status', '=', 'published')
        .where('deleted_at', 'is', null)
        .orderBy('year', 'desc')
        .execute();
      return ok({
        results: answer.results.map((r) => pick(r, MOVIE_CARD_FIELDS)),
        page: { total: answer.page.total, page: answer.page.page, limit: answer.page.limit },
        years: years.map((y) => Number(y.year)),
      });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/movies/:id',
    {
      preHandler: app.requireUser,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['public'],
        summary: '电影详情（需登录）',
        security: bearerSecurity,
        params: { type: 'object', properties: { id: { type: 'integer', title: '电影', minimum: 1 } } },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              ...movieCardSchema.properties,
              cast: { type: ['array', 'null'], items: { type: 'string' } },
              synopsis: { type: ['string', 'null'] },
              video: { type: ['string', 'null'], description: '上传的视频文件 URL' },
              videoUrl: { type: ['string', 'null'], description: '外部视频地址' },
            },
          }),
          ...authFailureResponses,
          404: { description: '没有这部电影或未发布', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const id = /^[1-9]\d{0,15}$/.test(request.params.id) ? Number(request.params.id) : null;
      const missing = () => notFound('没有找到这部电影');
      if (id === null) throw missing();
      const row = await app.resources.get(movies, id).catch(() => null);
      if (row?.status !== 'published') throw missing();
      return ok(pick(row, MOVIE_DETAIL_FIELDS));
    },
  );

  // Its own scope: the multipart parser (and its size limit) only where audio is uploaded.
  await app.register(async (scope) => {
    await registerUploads(scope, [AUDIO_UPLOAD]);
    scope.post(
      '/api/admin/media/audio',
      {
        preHandler: scope.requirePermission('music', 'write'),
        schema: {
          tags: ['music'],
          summary:
            '上传音频（multipart 字段 file；MP3/WAV/OGG/M4A，最大 30 MB），返回可填入曲目“音频文件”的 URL',
          security: bearerSecurity,
          consumes: ['multipart/form-data'],
          response: {
            200: successEnvelopeSchema({
              type: 'object',
              properties: { url: { type: 'string' }, bytes: { type: 'integer' }, type: { type: 'string' } },
            }),
            ...authFailureResponses,
            413: { description: '文件过大', ...failureEnvelopeSchema },
            422: { description: '不是支持的音频', ...failureEnvelopeSchema },
          },
        },
      },
      async (request) => {
        const blob = await acceptUpload(request, scope.blobs, AUDIO_UPLOAD);
        return ok({ url: blob.url, bytes: blob.bytes, type: blob.type }, '上传成功');
      },
    );
  });
};
