/**
 * The one rule every uploaded image passes (admin uploads, the public licence image): its
 * dimensions are read from its header (sharp's metadata, bounded by `limitInputPixels`) before
 * any pixel is decoded, so a small file declaring 30 000 × 30 000 pixels — a decompression bomb
 * — is refused without the server allocating gigabytes for it; and bytes that carry an image's
 * magic number but no readable image are refused too.
 */
import type { Metadata, Sharp as SharpImage } from 'sharp';
import { ApiError } from '../http/envelope.js';
import { loadSharp } from './sharp.js';

/** 50 megapixels (8 660 × 5 773): a decompression bomb stops here, any camera photo fits. */
export const MAX_IMAGE_PIXELS = 50_000_000;

export const unreadableImage = (message: string) =>
  new ApiError({ status: 422, errorCode: 422, message, data: { fields: { file: message } } });

/** `data` as a sharp input bounded by the rule, and its metadata; 422 when the rule refuses it. */
export async function checkedImage(
  data: Buffer,
  options: { animated?: boolean } = {},
): Promise<{ input: () => SharpImage; meta: Metadata }> {
  // Loaded on first use (files/sharp.ts: libvips would otherwise sit in an idle server's memory).
  const sharp = await loadSharp();
  const input = () =>
    sharp(data, { animated: options.animated ?? false, limitInputPixels: MAX_IMAGE_PIXELS });
  let meta: Metadata;
  try {
    meta = await input().metadata();
  } catch (error) {
    throw /pixel limit/i.test(String(error))
      ? unreadableImage(`图片像素过多，最大 ${MAX_IMAGE_PIXELS / 1_000_000} 百万像素`)
      : unreadableImage('图片已损坏，无法读取');
  }
  if (!meta.width || !meta.height) throw unreadableImage('图片已损坏，无法读取');
  return { input, meta };
}

/**
 * Decodes the whole image once (into a small thumbnail, so libvips streams it and never holds
 * the full pixels) to refuse bytes whose header reads but whose pixels do not. For routes that
 * store an image as sent; the admin upload decodes it anyway for its thumbnail.
 */
export async function assertImageDecodes(input: () => SharpImage): Promise<void> {
  try {
    await input().resize({ width: 64, height: 64, fit: 'inside' }).toBuffer();
  } catch {
    throw unreadableImage('图片已损坏，无法读取');
  }
}
