/**
 * /movie/{id} (login): the poster and the details of one movie, and a player when it has a video
 * file (streamed from /api/files with Range) or a video URL.
 */
import { LeftOutlined, ReloadOutlined, StarFilled, VideoCameraOutlined } from '@ant-design/icons';
import { MOVIE_GENRES, MOVIE_REGIONS } from '@wanxiang/core';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useServices } from '../../session/services-context';
import { fetchMovie, type MovieDetail as Movie } from './api';
import './media.css';

const genreLabel = new Map(MOVIE_GENRES.map((o) => [o.value, o.label]));
const regionLabel = new Map(MOVIE_REGIONS.map((o) => [o.value, o.label]));

type Load =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'error'; message: string }
  | { state: 'ready'; movie: Movie };

export default function MovieDetail() {
  const { http } = useServices();
  const { id = '' } = useParams();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  const reload = useCallback(() => {
    setLoad({ state: 'loading' });
    fetchMovie(http, id).then(
      (movie) => setLoad({ state: 'ready', movie }),
      (error: unknown) => {
        if ((error as { status?: number }).status === 404) setLoad({ state: 'missing' });
        else
          setLoad({
            state: 'error',
            message: error instanceof Error ? error.message : '加载失败，请稍后重试',
          });
      },
    );
  }, [http, id]);
  useEffect(reload, [reload]);

  useEffect(() => {
    if (load.state === 'ready') document.title = `${load.movie.title} - ${document.title.split(' - ').pop()}`;
  }, [load]);

  const back = (
    <Link to="/movie" className="wx-back">
      <LeftOutlined aria-hidden /> 返回电影列表
    </Link>
  );

  if (load.state !== 'ready')
    return (
      <section className="wx-public-screen">
        {back}
        <h1 className="wx-public-screen-title">电影详情</h1>
        <div className="wx-media-state" role={load.state === 'loading' ? 'status' : 'alert'}>
          {load.state === 'loading' && '正在加载…'}
          {load.state === 'missing' && '没有找到这部电影，它可能已下架'}
          {load.state === 'error' && (
            <>
              <p>加载失败：{load.message}</p>
              <button type="button" className="wx-media-button" onClick={reload}>
                <ReloadOutlined aria-hidden /> 重试
              </button>
            </>
          )}
        </div>
      </section>
    );

  const m = load.movie;
  const source = m.video ?? m.videoUrl;
  const facts: [string, string][] = [
    ['导演', m.director ?? '—'],
    ['主演', m.cast?.length ? m.cast.join(' / ') : '—'],
    ['类型', m.genres?.length ? m.genres.map((g) => genreLabel.get(g) ?? g).join(' / ') : '—'],
    ['地区', m.region ? (regionLabel.get(m.region) ?? m.region) : '—'],
    ['年份', String(m.year)],
  ];
  return (
    <section className="wx-public-screen">
      {back}
      <article className="wx-movie-detail">
        <div className="wx-detail-poster">
          {m.poster ? (
            <img className="wx-detail-poster-img" src={m.poster} alt={`${m.title} 海报`} />
          ) : (
            <span className="wx-poster-empty" aria-hidden>
              <VideoCameraOutlined />
            </span>
          )}
        </div>
        <div className="wx-detail-body">
          <h1 className="wx-detail-title" data-testid="movie-title">
            {m.title} <span className="wx-detail-year">({m.year})</span>
          </h1>
          {m.originalTitle && m.originalTitle !== m.title && (
            <p className="wx-detail-original">{m.originalTitle}</p>
          )}
          {m.rating !== null && (
            <p className="wx-detail-rating">
              <StarFilled aria-hidden /> <span className="wx-visually-hidden">评分</span>
              <strong>{m.rating.toFixed(1)}</strong> <span>/ 10</span>
            </p>
          )}
          <dl className="wx-facts">
            {facts.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <h2 className="wx-detail-section">剧情简介</h2>
          <p className="wx-synopsis">{m.synopsis || '暂无简介'}</p>
        </div>
      </article>
      <div className="wx-video-card">
        <h2 className="wx-detail-section">在线观看</h2>
        {source ? (
          // biome-ignore lint/a11y/useMediaCaption: captions are not part of the catalogue yet
          <video
            className="wx-video"
            src={source}
            controls
            preload="metadata"
            poster={m.poster ?? undefined}
            data-testid="video"
          />
        ) : (
          <div className="wx-video-none">
            <VideoCameraOutlined aria-hidden /> 这部电影暂时没有可播放的片源
          </div>
        )}
      </div>
    </section>
  );
}
