/**
 * /music (login): the published tracks as a playlist beside a player — cover, title, play/pause,
 * previous/next, a seek bar, and the lyrics following the song when they are LRC. The audio
 * streams from /api/files with HTTP Range, so seeking does not download the whole file.
 */
import {
  CustomerServiceOutlined,
  PauseCircleFilled,
  PlayCircleFilled,
  ReloadOutlined,
  StepBackwardOutlined,
  StepForwardOutlined,
} from '@ant-design/icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useServices } from '../../session/services-context';
import { clock, currentLine, fetchTracks, parseLyrics, type Track } from './api';
import './media.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; tracks: Track[] };

function Cover({ track, size }: { track: Track; size: 'large' | 'small' }) {
  return track.cover ? (
    <img
      className={`wx-cover wx-cover-${size}`}
      src={track.cover}
      alt={size === 'large' ? `${track.title} 封面` : ''}
    />
  ) : (
    <span className={`wx-cover wx-cover-${size} wx-cover-empty`} aria-hidden>
      <CustomerServiceOutlined />
    </span>
  );
}

export default function Music() {
  const { http } = useServices();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [playError, setPlayError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const lyricsBox = useRef<HTMLOListElement>(null);
  const autoplay = useRef(false);

  const reload = useCallback(() => {
    setLoad({ state: 'loading' });
    fetchTracks(http).then(
      (tracks) => setLoad({ state: 'ready', tracks }),
      (error: unknown) =>
        setLoad({ state: 'error', message: error instanceof Error ? error.message : '加载失败，请稍后重试' }),
    );
  }, [http]);
  useEffect(reload, [reload]);

  const tracks = load.state === 'ready' ? load.tracks : [];
  const track = tracks[index];
  const lines = useMemo(() => parseLyrics(track?.lyrics ?? null), [track]);
  const active = currentLine(lines, time);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the sung line changes
  useEffect(() => {
    const el = lyricsBox.current?.querySelector<HTMLElement>('[data-active="true"]');
    const box = lyricsBox.current;
    if (el && box)
      box.scrollTo({ top: el.offsetTop - box.clientHeight / 2 + el.clientHeight / 2, behavior: 'smooth' });
  }, [active]);

  // A new track: start from zero, and keep playing if the previous one was.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the track changes
  useEffect(() => {
    setTime(0);
    setDuration(track?.durationS ?? 0);
    setPlayError(null);
    if (autoplay.current) void audio.current?.play().catch(() => setPlaying(false));
  }, [track?.id]);

  const go = (next: number) => {
    if (tracks.length === 0) return;
    autoplay.current = playing || autoplay.current;
    setIndex((next + tracks.length) % tracks.length);
  };

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) {
      autoplay.current = true;
      el.play().catch(() => setPlayError('无法播放这首歌，请稍后重试'));
    } else {
      autoplay.current = false;
      el.pause();
    }
  };

  const pick = (i: number) => {
    autoplay.current = true;
    if (i === index) {
      const el = audio.current;
      if (el?.paused) void el.play().catch(() => setPlayError('无法播放这首歌，请稍后重试'));
      return;
    }
    setIndex(i);
  };

  if (load.state === 'loading')
    return (
      <section className="wx-public-screen">
        <h1 className="wx-public-screen-title">音乐</h1>
        <div className="wx-media-state" role="status">
          正在加载曲目…
        </div>
      </section>
    );
  if (load.state === 'error')
    return (
      <section className="wx-public-screen">
        <h1 className="wx-public-screen-title">音乐</h1>
        <div className="wx-media-state" role="alert">
          <p>曲目加载失败：{load.message}</p>
          <button type="button" className="wx-media-button" onClick={reload}>
            <ReloadOutlined aria-hidden /> 重试
          </button>
        </div>
      </section>
    );
  if (!track)
    return (
      <section className="wx-public-screen">
        <h1 className="wx-public-screen-title">音乐</h1>
        <div className="wx-media-state">还没有发布的曲目</div>
      </section>
    );

  const total = duration || track.durationS || 0;
  return (
    <section className="wx-public-screen">
      <h1 className="wx-public-screen-title">音乐</h1>
      <div className="wx-music">
        <div className="wx-player">
          <div className="wx-player-head">
            <Cover track={track} size="large" />
            <div className="wx-player-info">
              <p className="wx-player-kicker">{playing ? '正在播放' : '已暂停'}</p>
              <h2 className="wx-player-title" data-testid="now-playing">
                {track.title}
              </h2>
              <p className="wx-player-artist">
                {track.artist}
                {track.album ? ` · ${track.album}` : ''}
              </p>
            </div>
          </div>
          {/* biome-ignore lint/a11y/useMediaCaption: music without speech; the lyrics are shown beside it */}
          <audio
            ref={audio}
            src={track.audio}
            preload="metadata"
            data-testid="audio"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
            onLoadedMetadata={(e) =>
              Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)
            }
            onEnded={() => {
              autoplay.current = true;
              if (tracks.length > 1) go(index + 1);
              else setPlaying(false);
            }}
            onError={() => setPlayError('音频加载失败')}
          />
          <div className="wx-progress">
            <span className="wx-time">{clock(time)}</span>
            <input
              type="range"
              className="wx-seek"
              min={0}
              max={total || 1}
              step={0.1}
              value={Math.min(time, total || 1)}
              aria-label="播放进度"
              aria-valuetext={`${clock(time)} / ${clock(total)}`}
              style={{ ['--wx-seek' as string]: `${total ? (Math.min(time, total) / total) * 100 : 0}%` }}
              onChange={(e) => {
                const el = audio.current;
                const t = Number(e.target.value);
                if (el) el.currentTime = t;
                setTime(t);
              }}
            />
            <span className="wx-time">{clock(total)}</span>
          </div>
          <div className="wx-controls">
            <button type="button" className="wx-control" aria-label="上一首" onClick={() => go(index - 1)}>
              <StepBackwardOutlined />
            </button>
            <button
              type="button"
              className="wx-control wx-control-main"
              aria-label={playing ? '暂停' : '播放'}
              data-testid="play"
              onClick={toggle}
            >
              {playing ? <PauseCircleFilled /> : <PlayCircleFilled />}
            </button>
            <button type="button" className="wx-control" aria-label="下一首" onClick={() => go(index + 1)}>
              <StepForwardOutlined />
            </button>
          </div>
          {playError && (
            <p className="wx-media-error" role="alert">
              {playError}
            </p>
          )}
          {lines.length > 0 ? (
            <ol className="wx-lyrics" ref={lyricsBox} aria-label="歌词">
              {lines.map((line, i) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines of one song, in order
                  key={i}
                  data-active={i === active}
                  className={i === active ? 'wx-lyric wx-lyric-active' : 'wx-lyric'}
                >
                  {line.text}
                </li>
              ))}
            </ol>
          ) : (
            <p className="wx-lyrics-none">纯音乐，请欣赏</p>
          )}
        </div>

        <div className="wx-playlist">
          <div className="wx-playlist-head">
            <h2>播放列表</h2>
            <span>共 {tracks.length} 首</span>
          </div>
          <ol className="wx-playlist-items">
            {tracks.map((t, i) => (
              <li key={t.id}>
                <button
                  type="button"
                  className={i === index ? 'wx-track wx-track-current' : 'wx-track'}
                  aria-current={i === index ? 'true' : undefined}
                  data-testid="track"
                  onClick={() => pick(i)}
                >
                  <span className="wx-track-no" aria-hidden>
                    {i === index && playing ? <span className="wx-eq" /> : i + 1}
                  </span>
                  <Cover track={t} size="small" />
                  <span className="wx-track-text">
                    <span className="wx-track-title">{t.title}</span>
                    <span className="wx-track-sub">
                      {t.artist}
                      {t.album ? ` · ${t.album}` : ''}
                    </span>
                  </span>
                  <span className="wx-track-time">{clock(t.durationS)}</span>
                </button>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
