/**
 * A poster: the uploaded background with a QR code of the target link in its lower right corner,
 * rendered to a PNG in the blob store (the same content-addressed store as every upload, so the
 * same background and link give the same file and URL). The QR code is the `qrcode` package's,
 * with its white quiet zone, so it scans on a dark background too.
 */
import QRCode from 'qrcode';
import { type BlobStore, blobIdOf, type StoredBlob } from '../../files/blob-store.js';
import { loadSharp } from '../../files/sharp.js';
import { invalidInput } from '../../http/envelope.js';
import { MAX_IMAGE_PIXELS } from '../blog/images.js';

/** The poster's long side at most (a phone screen's height at 3×), short side at least. */
export const POSTER_MAX_SIDE = 2048;
export const POSTER_MIN_SIDE = 360;
/** The code's width as a share of the short side: scans from across a table, leaves the picture. */
export const QR_SHARE = 0.3;

export async function renderPoster(
  blobs: BlobStore,
  background: unknown,
  targetUrl: unknown,
): Promise<StoredBlob> {
  const id = blobIdOf(typeof background === 'string' ? background : null);
  const file = id ? await blobs.read(id) : null;
  if (!file) throw invalidInput({ background: '背景图须为上传的图片' }, '背景图须为上传的图片');
  if (typeof targetUrl !== 'string' || targetUrl === '')
    throw invalidInput({ targetUrl: '请输入二维码链接' }, '请输入二维码链接');

  const sharp = await loadSharp();
  let base: { data: Buffer; info: { width: number; height: number } };
  try {
    const image = sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
    const meta = await image.metadata();
    const w = meta.autoOrient?.width ?? meta.width ?? 0;
    const h = meta.autoOrient?.height ?? meta.height ?? 0;
    const scale =
      Math.min(w, h) > 0 && Math.min(w, h) < POSTER_MIN_SIDE ? POSTER_MIN_SIDE / Math.min(w, h) : 1;
    // Small backgrounds are enlarged (a code under ~100 px does not scan), big ones reduced.
    const fit =
      scale > 1
        ? { width: Math.round(w * scale), height: Math.round(h * scale) }
        : {
            width: POSTER_MAX_SIDE,
            height: POSTER_MAX_SIDE,
            fit: 'inside' as const,
            withoutEnlargement: true,
          };
    base = await image.resize(fit).png().toBuffer({ resolveWithObject: true });
  } catch {
    throw invalidInput({ background: '背景图无法读取，请重新上传' }, '背景图无法读取，请重新上传');
  }
  const { width, height } = base.info;
  const short = Math.min(width, height);

  let qr: Buffer;
  try {
    qr = await QRCode.toBuffer(targetUrl, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: Math.round(short * QR_SHARE),
      color: { dark: '#000000ff', light: '#ffffffff' },
    });
  } catch {
    throw invalidInput({ targetUrl: '链接太长，无法生成二维码' }, '链接太长，无法生成二维码');
  }
  const qrSize = (await sharp(qr).metadata()).width ?? 0;
  const margin = Math.round(short * 0.04);
  const png = await sharp(base.data)
    .composite([{ input: qr, left: width - qrSize - margin, top: height - qrSize - margin }])
    .png()
    .toBuffer();
  return blobs.put(png, 'png');
}
