/**
 * photos.thumbnail (read-only, "上传时自动生成"): when a photo's image is an upload of ours, its
 * thumbnail is the one made on upload — written to the row on create and update, and shown on
 * every read (the engine answers a write with the row as its UPDATE returned it). Images typed in
 * by hand (an external URL, the demo's files) keep whatever thumbnail the row has, except one made
 * for another upload.
 */
import { sql } from 'kysely';
import type { EngineExtensions, ResourceHooks } from '../../resources/extensions.js';
import { imageInfoOf, isUploadThumbnail, uploadedThumbnailOf } from './images.js';

const photoHooks: ResourceHooks = {
  async afterWrite(ctx, id, values) {
    if (!('image' in values)) return;
    const image = typeof values.image === 'string' ? values.image : null;
    const thumb = await uploadedThumbnailOf(ctx.trx, image);
    if (thumb) {
      await ctx.trx.updateTable('photos').set({ thumbnail: thumb }).where(sql.ref('id'), '=', id).execute();
      return;
    }
    const row = await ctx.trx
      .selectFrom('photos')
      .select('thumbnail')
      .where(sql.ref('id'), '=', id)
      .executeTakeFirst();
    const current = row?.thumbnail as string | null | undefined;
    if (current && (await isUploadThumbnail(ctx.trx, current)))
      await ctx.trx.updateTable('photos').set({ thumbnail: null }).where(sql.ref('id'), '=', id).execute();
  },

  async loadVirtual(db, rows) {
    const info = await imageInfoOf(
      db,
      rows.map((r) => r.image as string | null),
    );
    if (info.size === 0) return;
    for (const row of rows) {
      const thumb = info.get(row.image as string)?.thumbUrl;
      if (thumb) row.thumbnail = thumb;
    }
  },
};

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('photos', photoHooks);
}
