import { getResource } from '@wanxiang/core';
import { encodeWav, MELODIES, renderMelody } from '@wanxiang/demo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBlob } from '../../src/files/blob-store.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

const tracks = getResource('tracks');
const movies = getResource('movies');

describe.each(DB_KINDS)('music and movies on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let wavUrl: string;
  let wavBytes: number;
  let movieIds: number[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    const wav = encodeWav(renderMelody(MELODIES.xiaoxingxing));
    wavBytes = wav.byteLength;
    wavUrl = (await putBlob(t.config.dataDir, wav, 'wav')).url;
    await t.app.resources.insertRows(tracks, [
      {
        title: '小星星',
        artist: '八音盒',
        album: '童谣',
        audio: wavUrl,
        durationS: 6,
        lyrics: '[00:00.00]一闪一闪',
        status: 'published',
      },
      { title: '隐藏的歌', artist: '八音盒', audio: wavUrl, durationS: 3, status: 'hidden' },
    ]);
    const movie = (title: string, year: number, genres: string[], region: string, extra = {}) => ({
      title,
      originalTitle: `${title} (original)`,
      year,
      director: '张导演',
      cast: ['李主演', '王配角'],
      genres,
      region,
      rating: 7.5,
      synopsis: `${title}的剧情简介`,
      status: 'published',
      ...extra,
    });
    movieIds = await t.app.resources.insertRows(movies, [
      movie('长河落日', 2023, ['drama', 'history'], 'cn'),
      movie('雾中的灯塔', 2021, ['mystery', 'drama'], 'cn', { videoUrl: 'https://example.com/v.mp4' }),
      movie('北国之春', 2017, ['romance'], 'jp'),
      movie('午夜厨房', 2023, ['drama', 'comedy'], 'kr'),
      movie('未公开的片子', 2023, ['drama'], 'cn', { status: 'hidden' }),
    ]);
  });
  afterAll(async () => t?.close());

  const anon = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  describe('GET /api/music', () => {
    it('needs a login', async () => {
      const res = await anon('/api/music');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, errorCode: 401 });
    });

    it('lists the published tracks only, with their audio URL, duration and lyrics', async () => {
      const res = await api.get('/api/music');
      expect(res.status, res.text).toBe(200);
      const list = res.body.data.results as Record<string, unknown>[];
      expect(list.map((r) => r.title)).toEqual(['小星星']);
      expect(list[0]).toMatchObject({
        artist: '八音盒',
        album: '童谣',
        audio: wavUrl,
        durationS: 6,
        lyrics: '[00:00.00]一闪一闪',
      });
      expect(list[0]).not.toHaveProperty('status');
    });

    it("streams a track's audio with HTTP Range: 206, audio/wav, the asked bytes", async () => {
      const { audio } = (await api.get('/api/music')).body.data.results[0] as { audio: string };
      const res = await anon(audio, { range: 'bytes=0-43' });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-type']).toBe('audio/wav');
      expect(res.headers['content-range']).toBe(`bytes 0-43/${wavBytes}`);
      expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(res.rawPayload.subarray(8, 12).toString('latin1')).toBe('WAVE');
      const tail = await anon(audio, { range: `bytes=${wavBytes - 10}-` });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.byteLength).toBe(10);
    });
  });

  describe('GET /api/public/movies', () => {
    const titles = async (query: string) => {
      const res = await anon(`/api/public/movies${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.results as { title: string }[]).map((r) => r.title);
    };

    it('lists published movies without a login, newest first, with the years on offer', async () => {
      const res = await anon('/api/public/movies');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.page).toMatchObject({ total: 4, page: 1, limit: 24 });
      expect(data.results.map((r: { title: string }) => r.title).sort()).toEqual(
        ['长河落日', '雾中的灯塔', '北国之春', '午夜厨房'].sort(),
      );
      expect(data.results[0].year).toBe(2023);
      expect(data.years).toEqual([2023, 2021, 2017]);
      // The card, not the whole row: no video, no status.
      expect(data.results[0]).not.toHaveProperty('videoUrl');
      expect(data.results[0]).not.toHaveProperty('status');
    });

    it('filters by genre, year, region and keyword, combined', async () => {
      expect((await titles('?genre=drama')).sort()).toEqual(['午夜厨房', '长河落日', '雾中的灯塔'].sort());
      expect((await titles('?genre=drama&year=2023')).sort()).toEqual(['午夜厨房', '长河落日'].sort());
      expect(await titles('?genre=drama&year=2023&region=kr')).toEqual(['午夜厨房']);
      expect(await titles('?region=jp')).toEqual(['北国之春']);
      expect(await titles(`?q=${encodeURIComponent('灯塔')}`)).toEqual(['雾中的灯塔']);
      expect(await titles(`?q=${encodeURIComponent('李主演')}&region=jp`)).toEqual(['北国之春']);
      expect(await titles('?genre=horror')).toEqual([]);
    });

    it('pages', async () => {
      const first = (await anon('/api/public/movies?limit=3&page=1')).json().data;
      const second = (await anon('/api/public/movies?limit=3&page=2')).json().data;
      expect(first.results).toHaveLength(3);
      expect(second.results).toHaveLength(1);
      expect(first.page.total).toBe(4);
      const ids = [...first.results, ...second.results].map((r: { id: number }) => r.id);
      expect(new Set(ids).size).toBe(4);
    });

    it.each([
      ['?genre=nope', 'genre'],
      ['?year=abc', 'year'],
      ['?region=mars', 'region'],
      ['?limit=1000', 'limit'],
      ['?page=0', 'page'],
    ])('refuses %s with a Chinese field message', async (query, field) => {
      const res = await anon(`/api/public/movies${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().data.fields[field]).toMatch(/[\u4e00-\u9fa5]/);
    });
  });

  describe('GET /api/movies/:id', () => {
    it('needs a login', async () => {
      expect((await anon(`/api/movies/${movieIds[0]}`)).statusCode).toBe(401);
    });

    it('answers the details and the video source', async () => {
      const res = await api.get(`/api/movies/${movieIds[1]}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({
        id: movieIds[1],
        title: '雾中的灯塔',
        originalTitle: '雾中的灯塔 (original)',
        year: 2021,
        director: '张导演',
        cast: ['李主演', '王配角'],
        genres: ['mystery', 'drama'],
        region: 'cn',
        rating: 7.5,
        synopsis: '雾中的灯塔的剧情简介',
        videoUrl: 'https://example.com/v.mp4',
        video: null,
      });
    });

    it('is 404 for a hidden, deleted or unknown movie', async () => {
      expect((await api.get(`/api/movies/${movieIds[4]}`)).status).toBe(404);
      expect((await api.get('/api/movies/999999')).status).toBe(404);
      expect((await api.get('/api/movies/abc')).status).toBe(404);
      await api.del(`/api/admin/movies/${movieIds[2]}`);
      expect((await api.get(`/api/movies/${movieIds[2]}`)).status).toBe(404);
      expect(await (async () => (await anon('/api/public/movies?region=jp')).json().data.results)()).toEqual(
        [],
      );
    });
  });

  describe('POST /api/admin/media/audio', () => {
    const upload = (token: string | null, bytes: Buffer, name = 'a.bin') => {
      const boundary = '----wxtest';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/media/audio',
        payload,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
    };

    it('stores a WAV by its magic bytes and answers its file URL', async () => {
      const wav = encodeWav(renderMelody(MELODIES.huanlesong));
      const res = await upload(api.token, wav, '../../evil.mp3');
      expect(res.statusCode, res.body).toBe(200);
      const { url, type } = res.json().data as { url: string; type: string };
      expect(type).toBe('audio/wav');
      expect(url).toMatch(/^\/api\/files\/[0-9a-f]{32}\.wav$/);
      const file = await anon(url);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(wav)).toBe(true);
    });

    it('refuses what is not audio, whatever its name says, and anonymous uploads', async () => {
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const res = await upload(api.token, Buffer.concat([png, Buffer.alloc(64)]), 'song.mp3');
      expect(res.statusCode).toBe(422);
      expect(res.json().data.fields.file).toBe('不支持的音频格式，请上传 MP3、WAV、OGG、M4A 文件');
      expect((await upload(null, encodeWav(renderMelody(MELODIES.huanlesong)))).statusCode).toBe(401);
    });
  });
});
