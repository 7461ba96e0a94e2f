/**
 * Posters' generated image (README.md): a create, or an update that changes the background or
 * the link, renders the poster in the same write; 生成 (`generate`) renders it again on demand.
 * The rendering reads the background from this server's blob store, so the store is known per
 * database (set by the area's plugin at start, as the certificates' sealing key is).
 */
import { getResource } from '@wanxiang/core';
import type { BlobStore } from '../../files/blob-store.js';
import { changeRowWhen } from '../../resources/actions.js';
import type { AnyDb, EngineExtensions, WriteContext } from '../../resources/extensions.js';
import { modelOf } from '../../resources/storage.js';
import { renderPoster } from './render.js';

const stores = new WeakMap<object, BlobStore>();

/** The blob store of the server running on `db`. */
export function setPosterBlobs(db: AnyDb, blobs: BlobStore): void {
  stores.set(db, blobs);
}

function blobsOf(ctx: WriteContext): BlobStore {
  const dir = stores.get(ctx.db);
  // A script writing through the engine without a server cannot render: say so rather than guess.
  if (!dir) throw new Error('posters are rendered by the server (no blob store for this database)');
  return dir;
}

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('posters', {
    async afterWrite(ctx, id, values, before) {
      const changed =
        before === null ||
        ('background' in values && values.background !== before.background) ||
        ('targetUrl' in values && values.targetUrl !== before.targetUrl);
      if (!changed) return;
      const background = 'background' in values ? values.background : before?.background;
      const targetUrl = 'targetUrl' in values ? values.targetUrl : before?.targetUrl;
      // A seeder writing rows without a server (no blob store known), or a demo row whose
      // background is filled in later: nothing to render yet; 生成 renders it. Writes through the
      // API always have a background (required) and a server.
      const dir = stores.get(ctx.db);
      if (!dir || background === '' || background === null || background === undefined) return;
      const poster = await renderPoster(dir, background, targetUrl);
      const model = modelOf(getResource('posters'));
      await ctx.trx.updateTable(model.table).set({ image: poster.url }).where('id', '=', id).execute();
    },
  });

  engine.registerActionHandler('posters', 'generate', async (ctx) => {
    const poster = await renderPoster(blobsOf(ctx), ctx.row.background, ctx.row.targetUrl);
    await changeRowWhen(ctx, {}, { image: poster.url });
    return undefined;
  });
}
