/**
 * The ports the demo package (`@wanxiang/demo`) writes through, over this server's engine:
 * rows through `insertRows` (conversions, defaults, hooks such as password hashing), ids from
 * each table's `max(id)`, files into the blob store under `${dataDir}/uploads/`.
 */
import { getResource, RESOURCES } from '@wanxiang/core';
import type { DemoStore } from '@wanxiang/demo';
import { sql } from 'kysely';
import { inlineLimit } from './db/limit.js';
import type { BlobStore } from './files/blob-store.js';
import type { ResourceEngine } from './resources/index.js';
import { modelOf } from './resources/storage.js';

const tableOf = (resource: string) => modelOf(getResource(resource)).table;

/** The demo's ports over `engine` (its database, and the hooks the areas handed it). */
export function demoStore(engine: ResourceEngine, blobs: BlobStore): DemoStore {
  const db = engine.db;
  return {
    async hasRows(resource) {
      const row = await db
        .selectFrom(tableOf(resource))
        .select('id')
        .limit(inlineLimit(1))
        .executeTakeFirst();
      return row !== undefined;
    },
    async nextIds() {
      const ids = new Map<string, number>();
      for (const def of RESOURCES) {
        const model = modelOf(def);
        if (!model.hasTable) continue;
        const row = (await db
          .selectFrom(model.table)
          .select(sql<number | string | null>`max(id)`.as('top'))
          .executeTakeFirst()) as { top: number | string | null } | undefined;
        ids.set(def.name, Number(row?.top ?? 0) + 1);
      }
      return ids;
    },
    async userIds(usernames) {
      const rows = (await db
        .selectFrom(tableOf('users'))
        .select(['id', 'username'])
        .where('username', 'in', [...usernames])
        .execute()) as { id: number; username: string }[];
      return new Map(rows.map((r) => [r.username, Number(r.id)]));
    },
    async config() {
      const rows = (await db.selectFrom('platform_config').select(['key', 'value']).execute()) as {
        key: string;
        value: string;
      }[];
      const stored = new Map<string, unknown>();
      for (const { key, value } of rows) {
        try {
          stored.set(key, JSON.parse(value));
        } catch {
          // Not JSON: left out of the snapshot.
        }
      }
      return stored;
    },
    async insertRows(resource, rows, { now }) {
      await engine.insertRows(getResource(resource), rows, { now, returnIds: false });
    },
    async deleteFrom(resource, fromId) {
      await db.deleteFrom(tableOf(resource)).where('id', '>=', fromId).execute();
    },
    putFile: (data, ext) => blobs.put(data, ext),
  };
}
