/**
 * `/photo` — the gallery: a grid of 3:2 thumbnails (lazy, with width and height so nothing jumps),
 * albums to filter by (`?album=` in the URL), 加载更多 for the next page, and a full-size preview
 * in a native <dialog> (Esc closes, arrows step, focus returns to the photo).
 */
import { createBlogApi, formatDate, PHOTOS_PER_PAGE, type Photo, type PhotoPage } from '@wanxiang/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useServices } from '../../session/services-context';
import { LoadFailed } from '../blog/BlogHome';
import { useRemote } from '../use-remote';
import '../blog/blog.css';
import './photo.css';

const THUMB_WIDTH = 480;
/** Two rows on a desktop: loaded at once rather than lazily (one of them is the largest paint). */
const EAGER = 10;

/** The thumbnail's size for its <img> attributes: the photo's proportions at thumbnail width. */
export function thumbSize(photo: Pick<Photo, 'width' | 'height'>): { width: number; height: number } {
  if (!photo.width || !photo.height) return { width: THUMB_WIDTH, height: 360 };
  return { width: THUMB_WIDTH, height: Math.max(1, Math.round((THUMB_WIDTH * photo.height) / photo.width)) };
}

function albumHref(album: string): string {
  return album ? `/photo?album=${encodeURIComponent(album)}` : '/photo';
}

function caption(photo: Photo): string {
  return [photo.album, photo.takenAt ? formatDate(photo.takenAt) : null].filter(Boolean).join(' · ');
}

function Preview({
  photos,
  total,
  index,
  onIndex,
  onClose,
}: {
  photos: readonly Photo[];
  /** All photos of the gallery (more than `photos` until every page is loaded). */
  total: number;
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const photo = photos[index];

  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
  }, []);

  const step = useCallback(
    (delta: number) => {
      const next = index + delta;
      if (next >= 0 && next < photos.length) onIndex(next);
    },
    [index, photos.length, onIndex],
  );

  if (!photo) return null;
  const size = photo.width && photo.height ? { width: photo.width, height: photo.height } : {};
  return (
    <dialog
      ref={dialog}
      className="wx-photo-dialog"
      aria-labelledby="wx-photo-dialog-title"
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') step(-1);
        if (event.key === 'ArrowRight') step(1);
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="wx-photo-dialog-frame">
        <img key={photo.id} className="wx-photo-dialog-image" src={photo.url} alt={photo.title} {...size} />
        <div className="wx-photo-dialog-bar">
          <div className="wx-photo-dialog-text">
            <h2 id="wx-photo-dialog-title" className="wx-photo-dialog-title">
              {photo.title}
            </h2>
            <p className="wx-photo-dialog-caption">
              {caption(photo)}
              <span className="wx-photo-dialog-count">
                {index + 1} / {Math.max(total, photos.length)}
              </span>
            </p>
          </div>
          <div className="wx-photo-dialog-actions">
            <button
              type="button"
              className="wx-photo-dialog-button"
              onClick={() => step(-1)}
              disabled={index === 0}
            >
              上一张
            </button>
            <button
              type="button"
              className="wx-photo-dialog-button"
              onClick={() => step(1)}
              disabled={index >= photos.length - 1}
            >
              下一张
            </button>
            <a className="wx-photo-dialog-button" href={photo.url} target="_blank" rel="noopener noreferrer">
              查看原图
            </a>
            <button type="button" className="wx-photo-dialog-button wx-photo-dialog-close" onClick={onClose}>
              关闭
            </button>
          </div>
        </div>
      </div>
    </dialog>
  );
}

export default function PhotoGallery() {
  const { http } = useServices();
  const api = useMemo(() => createBlogApi(http), [http]);
  const [params] = useSearchParams();
  const album = (params.get('album') ?? '').trim().slice(0, 50);
  const [remote, retry] = useRemote(
    () => api.photos({ page: 1, limit: PHOTOS_PER_PAGE, album }),
    [api, album],
  );
  // Pages after the first, appended by 加载更多 (cleared when the album changes).
  const [more, setMore] = useState<{ album: string; pages: PhotoPage[] }>({ album, pages: [] });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const [open, setOpen] = useState<number | null>(null);

  const extra = more.album === album ? more.pages : [];
  const first = remote.data;
  const photos = useMemo(() => (first ? [first, ...extra].flatMap((p) => p.results) : []), [first, extra]);
  const total = (extra.at(-1) ?? first)?.page.total ?? 0;

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const next = await api.photos({ page: extra.length + 2, limit: PHOTOS_PER_PAGE, album });
      setMore({ album, pages: [...extra, next] });
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="wx-gallery" aria-labelledby="wx-gallery-title">
      <div className="wx-blog-head">
        <h1 id="wx-gallery-title" className="wx-public-screen-title">
          相册
        </h1>
        {first && (
          <p className="wx-blog-filter">
            {album ? `「${album}」共 ${first.page.total} 张` : `共 ${first.page.total} 张`}
          </p>
        )}
      </div>
      {first && first.albums.length > 0 && (
        <nav className="wx-gallery-albums" aria-label="相册">
          <ul className="wx-tags">
            <li>
              <Link
                to={albumHref('')}
                className={album ? 'wx-tag' : 'wx-tag wx-tag-active'}
                aria-current={album ? undefined : 'true'}
              >
                全部
              </Link>
            </li>
            {first.albums.map((a) => (
              <li key={a.name}>
                <Link
                  to={albumHref(a.name)}
                  className={a.name === album ? 'wx-tag wx-tag-active' : 'wx-tag'}
                  aria-current={a.name === album ? 'true' : undefined}
                >
                  {a.name}{' '}
                  <span className="wx-tag-count">
                    {a.count}
                    <span className="wx-visually-hidden"> 张</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}

      {remote.state === 'loading' && (
        <ul className="wx-gallery-grid" aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <li key={i} className="wx-gallery-item wx-skeleton-block" aria-hidden="true" />
          ))}
        </ul>
      )}
      {remote.state === 'failed' && <LoadFailed what="图片" onRetry={retry} />}
      {first && photos.length === 0 && (
        <div className="wx-blog-state">
          <p>{album ? `相册「${album}」里还没有公开的图片。` : '还没有公开的图片，敬请期待。'}</p>
          {album && (
            <Link to="/photo" className="wx-button">
              查看全部图片
            </Link>
          )}
        </div>
      )}
      {photos.length > 0 && (
        <ul className="wx-gallery-grid">
          {photos.map((photo, i) => {
            const size = thumbSize(photo);
            return (
              <li key={photo.id} className="wx-gallery-item">
                {/* The button is named by its image's alt (the title); its ::after covers the caption too. */}
                <button
                  type="button"
                  className="wx-gallery-open"
                  onClick={() => setOpen(i)}
                  aria-haspopup="dialog"
                  title="查看大图"
                >
                  <span className="wx-gallery-frame">
                    <img
                      src={photo.thumbUrl}
                      alt={photo.title}
                      width={size.width}
                      height={size.height}
                      loading={i < EAGER ? 'eager' : 'lazy'}
                      decoding="async"
                    />
                  </span>
                </button>
                <div className="wx-gallery-caption">
                  <span className="wx-gallery-title" aria-hidden="true">
                    {photo.title}
                  </span>
                  <span className="wx-gallery-album">{caption(photo)}</span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {first && photos.length > 0 && (
        <div className="wx-gallery-more">
          {photos.length < total ? (
            <button type="button" className="wx-button" onClick={loadMore} disabled={loadingMore}>
              {loadingMore ? '加载中…' : moreFailed ? '加载失败，点击重试' : '加载更多'}
            </button>
          ) : (
            <p>已显示全部 {total} 张</p>
          )}
        </div>
      )}
      {open !== null && (
        <Preview photos={photos} total={total} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
      )}
    </section>
  );
}
