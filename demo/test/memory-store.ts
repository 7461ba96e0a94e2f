/** A DemoStore in memory: the rows and files the demo would write, for tests of the generation. */
import { createHash } from 'node:crypto';
import { RESOURCES } from '@wanxiang/core';
import type { DemoStore, Row } from '../src/index.js';

export interface MemoryStore extends DemoStore {
  tables: Map<string, Row[]>;
  files: Map<string, number>;
  /** Resource names in the order they were written. */
  writes: string[];
  deletes: { resource: string; fromId: number }[];
}

export function memoryStore(options: { failOn?: string; marker?: boolean } = {}): MemoryStore {
  const tables = new Map<string, Row[]>();
  const files = new Map<string, number>();
  const writes: string[] = [];
  const deletes: { resource: string; fromId: number }[] = [];
  if (options.marker) tables.set('stores', [{ id: 1 }]);
  return {
    tables,
    files,
    writes,
    deletes,
    hasRows: async (resource) => (tables.get(resource)?.length ?? 0) > 0,
    // Every resource of the registry with fields stands for one with a table here.
    nextIds: async () => new Map(RESOURCES.map((def) => [def.name, (tables.get(def.name)?.length ?? 0) + 1])),
    userIds: async () => new Map([['admin', 1]]),
    config: async () => new Map(),
    async insertRows(resource, rows) {
      if (resource === options.failOn) throw new Error(`cannot write ${resource}`);
      writes.push(resource);
      tables.set(resource, [...(tables.get(resource) ?? []), ...rows.map((r) => structuredClone(r))]);
    },
    async deleteFrom(resource, fromId) {
      deletes.push({ resource, fromId });
      tables.set(
        resource,
        (tables.get(resource) ?? []).filter((r) => r.id < fromId),
      );
    },
    async putFile(data, ext) {
      const id = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${ext}`;
      files.set(id, data.byteLength);
      return { url: `/api/files/${id}`, bytes: data.byteLength };
    },
  };
}
