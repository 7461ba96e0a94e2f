/**
 * Uploaded images (README.md "Uploads"): the type from the bytes, never the name; EXIF (camera,
 * GPS position) stripped and the orientation applied; a WebP thumbnail 480 px wide; every size
 * kept in `image_files` by blob id, so the gallery gives each <img> its width and height.
 */
import { fileTypeFromBuffer } from 'file-type';
import { type BlobStore, blobIdOf, FILES_URL_PREFIX } from '../../files/blob-store.js';
import { checkedImage, MAX_IMAGE_PIXELS, unreadableImage as unreadable } from '../../files/image-rule.js';
import { loadSharp } from '../../files/sharp.js';
import { ApiError } from '../../http/envelope.js';
import { bumpVersion, VersionedKeeper } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The pixel limit is the one rule of every image upload (files/image-rule.ts). */
export { MAX_IMAGE_PIXELS };
export const THUMB_WIDTH = 480;

/** Detected type → how the original is stored. GIFs become (animated) WebP: see README.md. */
const ACCEPTED: Readonly<Record<string, { ext: 'jpg' | 'png' | 'webp'; contentType: string }>> = {
  'image/jpeg': { ext: 'jpg', contentType: 'image/jpeg' },
  'image/png': { ext: 'png', contentType: 'image/png' },
  'image/webp': { ext: 'webp', contentType: 'image/webp' },
  'image/gif': { ext: 'webp', contentType: 'image/webp' },
};

export const unsupportedType = () =>
  new ApiError({
    status: 422,
    errorCode: 422,
    message: '不支持的文件类型，仅支持 JPEG、PNG、WebP、GIF 图片',
    data: { fields: { file: '不支持的文件类型，仅支持 JPEG、PNG、WebP、GIF 图片' } },
  });

export interface StoredImage {
  id: string;
  url: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  thumbnail: { id: string; url: string; width: number; height: number };
}

/**
 * Checks, normalises and stores an uploaded image with its thumbnail. Throws 422 before anything
 * is written when the bytes are not an accepted image, so a refused upload leaves no trace.
 */
export async function storeImage(
  db: AnyDb,
  blobs: BlobStore,
  data: Buffer,
  now: number,
): Promise<StoredImage> {
  const detected = await fileTypeFromBuffer(data);
  const accepted = detected ? ACCEPTED[detected.mime] : undefined;
  if (!detected || !accepted) throw unsupportedType();
  const animated = detected.mime === 'image/gif' || detected.mime === 'image/webp';
  // Dimensions from the header, bounded, before any pixel is decoded.
  const { input, meta } = await checkedImage(data, { animated });
  const sharp = await loadSharp();

  let original: Buffer;
  let width: number;
  let height: number;
  try {
    const needsRewrite =
      detected.mime === 'image/gif' || meta.exif !== undefined || (meta.orientation ?? 1) !== 1;
    if (needsRewrite) {
      // rotate() applies the EXIF orientation; re-encoding drops the metadata (camera, GPS).
      const pipeline = input().rotate();
      const encoded =
        accepted.ext === 'jpg'
          ? pipeline.jpeg({ quality: 90, mozjpeg: true })
          : accepted.ext === 'png'
            ? pipeline.png()
            : pipeline.webp({ quality: 90 });
      const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
      original = out;
      width = info.width;
      // An animation's height is that of all its frames stacked.
      height = info.height / Math.max(1, meta.pages ?? 1);
    } else {
      original = data;
      width = meta.width ?? 0;
      height = meta.pageHeight ?? meta.height ?? 0;
    }
  } catch {
    throw unreadable('图片已损坏，无法读取');
  }
  if (!width || !height) throw unreadable('图片已损坏，无法读取');

  const thumb = await sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS })
    .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer({ resolveWithObject: true });

  const stored = await blobs.put(original, accepted.ext);
  const storedThumb = await blobs.put(thumb.data, 'webp');
  await db
    .insertInto('image_files')
    .values({
      id: stored.id,
      content_type: accepted.contentType,
      bytes: stored.bytes,
      width,
      height,
      thumb_id: storedThumb.id,
      thumb_width: thumb.info.width,
      thumb_height: thumb.info.height,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        thumb_id: storedThumb.id,
        thumb_width: thumb.info.width,
        thumb_height: thumb.info.height,
      }),
    )
    .execute();
  keptImages.forget();
  bumpVersion(db, STORED_IMAGES);
  return {
    id: stored.id,
    url: stored.url,
    contentType: accepted.contentType,
    bytes: stored.bytes,
    width,
    height,
    thumbnail: {
      id: storedThumb.id,
      url: storedThumb.url,
      width: thumb.info.width,
      height: thumb.info.height,
    },
  };
}

export interface ImageInfo {
  width: number;
  height: number;
  /** `/api/files/…` of the thumbnail made on upload, if one was. */
  thumbUrl: string | null;
}

export interface ImageRow {
  id: string;
  width: number | string;
  height: number | string;
  thumb_id: string | null;
}

const infoOf = (row: ImageRow): ImageInfo => ({
  width: Number(row.width),
  height: Number(row.height),
  thumbUrl: row.thumb_id ? FILES_URL_PREFIX + row.thumb_id : null,
});

/**
 * What each stored image is, kept in this process once read: a blob's id is its content's hash,
 * so its size never changes, and the public pages ask for the same images again and again (one
 * statement in five of the load bench's mix was this read — BENCHMARKS.md, twelfth session). The
 * one change a row sees is a thumbnail added by an upload of the same bytes (or the row written
 * at all: a file stored before uploads existed, sized when first shown): an upload here forgets
 * what was kept, and an image kept without a thumbnail, or without a row, is read again after
 * `COUNT_TTL_MS`, the time another process's writes take to show (resources/counts.ts
 * `VersionedKeeper`, which also drops it all on a restore). At most `KEPT_IMAGES`.
 */
const KEPT_IMAGES = 20_000;
/**
 * A version (resources/counts.ts) moved by every image stored here with its thumbnail: what was
 * made from the images' rows (the gallery's kept answers, public-routes.ts) is made again after it.
 */
export const STORED_IMAGES = 'imageFiles';
/** Null: no row (a file never read, or not stored here). */
const keptImages = new VersionedKeeper<ImageInfo | null>([], KEPT_IMAGES, (info) => !!info?.thumbUrl);

/**
 * The read of what is known about the stored images behind these URLs (external URLs are
 * skipped), to be sent with others (db/together.ts): `query` is null when every one is kept (or
 * none is stored), and `info` answers from the rows it read and what was kept.
 */
export function imageInfoRead(db: AnyDb, urls: readonly (string | null | undefined)[]) {
  const now = Date.now();
  const version = keptImages.version(db);
  const known = new Map<string, ImageInfo>();
  const missing: string[] = [];
  for (const id of new Set(urls.map(blobIdOf))) {
    if (id === null) continue;
    const kept = keptImages.get(db, id, now);
    if (!kept) missing.push(id);
    else if (kept.value) known.set(FILES_URL_PREFIX + id, kept.value);
  }
  return {
    /** What was kept, before the query answers. */
    kept: known as ReadonlyMap<string, ImageInfo>,
    query:
      missing.length === 0
        ? null
        : db
            .selectFrom('image_files')
            .select(['id', 'width', 'height', 'thumb_id'])
            .where('id', 'in', missing),
    info(rows: readonly ImageRow[]): Map<string, ImageInfo> {
      const found = new Set<string>();
      for (const row of rows) {
        const info = infoOf(row);
        keptImages.set(db, row.id, info, version, now);
        known.set(FILES_URL_PREFIX + row.id, info);
        found.add(row.id);
      }
      for (const id of missing) if (!found.has(id)) keptImages.set(db, id, null, version, now);
      return known;
    },
  };
}

/** What is known about the stored images behind these URLs (external URLs are skipped). */
export async function imageInfoOf(
  db: AnyDb,
  urls: readonly (string | null | undefined)[],
): Promise<Map<string, ImageInfo>> {
  const read = imageInfoRead(db, urls);
  return read.info(read.query ? ((await read.query.execute()) as ImageRow[]) : []);
}

/**
 * As imageInfoOf, and for stored images not yet known (written before uploads existed, like the
 * demo's photos) reads their size from the file once and remembers it.
 */
export async function imageInfoFilling(
  db: AnyDb,
  blobs: BlobStore,
  urls: readonly (string | null | undefined)[],
  now: number,
): Promise<Map<string, ImageInfo>> {
  const known = await imageInfoOf(db, urls);
  for (const url of new Set(urls)) {
    const id = blobIdOf(url);
    if (!id || !url || known.has(url)) continue;
    try {
      const data = await blobs.read(id);
      if (!data) continue;
      const sharp = await loadSharp();
      const meta = await sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
      const width = meta.width ?? 0;
      const height = meta.pageHeight ?? meta.height ?? 0;
      if (!width || !height) continue;
      await db
        .insertInto('image_files')
        .values({
          id,
          content_type: `image/${meta.format === 'jpeg' ? 'jpeg' : meta.format}`,
          bytes: data.byteLength,
          width,
          height,
          thumb_id: null,
          thumb_width: null,
          thumb_height: null,
          created_at: now,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      known.set(url, { width, height, thumbUrl: null });
      keptImages.set(db, id, { width, height, thumbUrl: null }, keptImages.version(db), Date.now());
    } catch {
      // A missing or unreadable file: the photo is listed without a size.
    }
  }
  return known;
}

/** The thumbnail made for the image at `url`, if it was uploaded here. */
export async function uploadedThumbnailOf(db: AnyDb, url: string | null | undefined): Promise<string | null> {
  const info = (await imageInfoOf(db, [url])).get(url ?? '');
  return info?.thumbUrl ?? null;
}

/** Whether `url` is a thumbnail this server made on an upload. */
export async function isUploadThumbnail(db: AnyDb, url: string | null | undefined): Promise<boolean> {
  const id = blobIdOf(url);
  if (!id) return false;
  const row = await db.selectFrom('image_files').select('id').where('thumb_id', '=', id).executeTakeFirst();
  return row !== undefined;
}
