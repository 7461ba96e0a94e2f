/**
 * /movie: published movies as a poster grid, filtered by genre, year and region and searched by
 * keyword; the filters and the page live in the URL, so a filtered list can be shared or reloaded.
 * A poster opens /movie/{id} (login).
 */
import { ReloadOutlined, SearchOutlined, StarFilled, VideoCameraOutlined } from '@ant-design/icons';
import { MOVIE_GENRES, MOVIE_REGIONS } from '@wanxiang/core';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useServices } from '../../session/services-context';
import { Pager, pageCount } from '../Pager';
import { fetchMovies, type MovieFilters, type MoviePage } from './api';
import './media.css';

const PAGE_SIZE = 18;
const genreLabel = new Map(MOVIE_GENRES.map((o) => [o.value, o.label]));
const regionLabel = new Map(MOVIE_REGIONS.map((o) => [o.value, o.label]));

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; page: MoviePage };

function Chips({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (v: string) => void;
}) {
  return (
    <fieldset className="wx-filter-row">
      <legend className="wx-filter-label">{label}</legend>
      <div className="wx-chips">
        {[{ value: '', label: '全部' }, ...options].map((o) => (
          <button
            key={o.value || 'all'}
            type="button"
            className={o.value === value ? 'wx-chip wx-chip-active' : 'wx-chip'}
            aria-pressed={o.value === value}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

export default function MovieList() {
  const { http } = useServices();
  const [params, setParams] = useSearchParams();
  const searchId = useId();
  const filters: MovieFilters = {
    genre: params.get('genre') ?? '',
    year: params.get('year') ?? '',
    region: params.get('region') ?? '',
    q: params.get('q') ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
  };
  const [keyword, setKeyword] = useState(filters.q ?? '');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [years, setYears] = useState<number[]>([]);
  const key = params.toString();

  const reload = useCallback(() => {
    setLoad({ state: 'loading' });
    const current = Object.fromEntries(new URLSearchParams(key));
    fetchMovies(http, { ...current, page: Number(current.page) || 1 }, PAGE_SIZE).then(
      (page) => {
        setLoad({ state: 'ready', page });
        setYears(page.years);
      },
      (error: unknown) =>
        setLoad({ state: 'error', message: error instanceof Error ? error.message : '加载失败，请稍后重试' }),
    );
  }, [http, key]);
  useEffect(reload, [reload]);
  useEffect(() => setKeyword(params.get('q') ?? ''), [params]);

  const update = (change: Partial<Record<Exclude<keyof MovieFilters, 'page'>, string>>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    // Other filters make other pages: the old page number may not even exist any more.
    next.delete('page');
    setParams(next);
  };

  // The pager's links keep the filters: only the page changes, as a shared URL would say.
  const pageHref = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 1) next.set('page', String(p));
    else next.delete('page');
    const query = next.toString();
    return query ? `/movie?${query}` : '/movie';
  };

  // Another page starts at the top, as a page load would: the pager sits under the grid.
  const shownPage = useRef(filters.page);
  useEffect(() => {
    if (shownPage.current === filters.page) return;
    shownPage.current = filters.page;
    window.scrollTo({ top: 0 });
  }, [filters.page]);

  const filtered = Boolean(filters.genre || filters.year || filters.region || filters.q);

  return (
    <section className="wx-public-screen">
      <h1 className="wx-public-screen-title">电影</h1>
      <div className="wx-movie-filters">
        <form
          className="wx-search"
          onSubmit={(e) => {
            e.preventDefault();
            update({ q: keyword.trim() });
          }}
        >
          <label htmlFor={searchId} className="wx-visually-hidden">
            搜索电影
          </label>
          <input
            id={searchId}
            className="wx-search-input"
            type="search"
            value={keyword}
            maxLength={50}
            placeholder="搜索片名、导演或主演"
            onChange={(e) => setKeyword(e.target.value)}
          />
          <button type="submit" className="wx-search-button">
            <SearchOutlined aria-hidden /> 搜索
          </button>
        </form>
        <Chips
          label="类型"
          value={filters.genre ?? ''}
          options={MOVIE_GENRES}
          onChange={(genre) => update({ genre })}
        />
        <Chips
          label="年份"
          value={filters.year ?? ''}
          options={years.map((y) => ({ value: String(y), label: String(y) }))}
          onChange={(year) => update({ year })}
        />
        <Chips
          label="地区"
          value={filters.region ?? ''}
          options={MOVIE_REGIONS}
          onChange={(region) => update({ region })}
        />
      </div>

      {load.state === 'loading' && (
        <div className="wx-movie-grid" role="status" aria-label="正在加载">
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
            <div key={i} className="wx-movie-card wx-media-skeleton" />
          ))}
        </div>
      )}
      {load.state === 'error' && (
        <div className="wx-media-state" role="alert">
          <p>电影加载失败：{load.message}</p>
          <button type="button" className="wx-media-button" onClick={reload}>
            <ReloadOutlined aria-hidden /> 重试
          </button>
        </div>
      )}
      {load.state === 'ready' && load.page.results.length === 0 && (
        <div className="wx-media-state">
          <p>{filtered ? '没有符合条件的电影' : '还没有发布的电影'}</p>
          {filtered && (
            <button
              type="button"
              className="wx-media-button"
              onClick={() => setParams(new URLSearchParams())}
            >
              清除筛选
            </button>
          )}
        </div>
      )}
      {load.state === 'ready' && load.page.results.length > 0 && (
        <>
          <ul className="wx-movie-grid" aria-label="电影列表">
            {load.page.results.map((m) => (
              <li key={m.id} className="wx-movie-card" data-testid="movie-card">
                <Link to={`/movie/${m.id}`} className="wx-movie-link">
                  <span className="wx-poster">
                    {m.poster ? (
                      <img src={m.poster} alt={`${m.title} 海报`} loading="lazy" />
                    ) : (
                      <span className="wx-poster-empty" aria-hidden>
                        <VideoCameraOutlined />
                      </span>
                    )}
                    {m.rating !== null && (
                      <span className="wx-rating">
                        <StarFilled aria-hidden /> <span className="wx-visually-hidden">评分</span>
                        {m.rating.toFixed(1)}
                      </span>
                    )}
                  </span>
                  <span className="wx-movie-title">{m.title}</span>
                  <span className="wx-movie-sub">
                    {m.year}
                    {m.region ? ` · ${regionLabel.get(m.region) ?? m.region}` : ''}
                    {m.genres?.length ? ` · ${m.genres.map((g) => genreLabel.get(g) ?? g).join(' / ')}` : ''}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Pager
            page={load.page.page.page}
            count={pageCount(load.page.page.total, load.page.page.limit)}
            hrefOf={pageHref}
            totalText={`共 ${load.page.page.total} 部`}
          />
        </>
      )}
    </section>
  );
}
