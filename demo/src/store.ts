/**
 * The ports the demo writes through, implemented by the server (server/src/demo-store.ts): this
 * package knows core's definitions and how to make rows, never the server's engine, database or
 * file layout — so it depends on `@wanxiang/core` and nothing of the server's.
 */

export interface StoredFile {
  /** What an image or file field holds (`/api/files/{id}`). */
  url: string;
  bytes: number;
}

/** A row in the wire shape of API.md (camelCase; datetimes as epoch ms or ISO text). */
export type Row = { id: number } & Record<string, unknown>;

export interface DemoStore {
  /** Whether a resource's table holds any row, live or deleted (the demo's marker). */
  hasRows(resource: string): Promise<boolean>;
  /**
   * Every resource that has a table, with the id its next row gets (`max(id) + 1`), in the
   * registry's order: the demo assigns ids up front, so areas refer to each other's rows before
   * anything is written.
   */
  nextIds(): Promise<ReadonlyMap<string, number>>;
  /** Ids of existing accounts by username (those found). */
  userIds(usernames: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /** The stored platform configuration: key → parsed JSON value (values that are not JSON left out). */
  config(): Promise<ReadonlyMap<string, unknown>>;
  /**
   * Inserts rows (wire shape, ids given) through the engine's `insertRows`: its conversions,
   * defaults and hooks (passwords hashed, roles written), in one transaction.
   */
  insertRows(resource: string, rows: readonly Row[], options: { now: number }): Promise<void>;
  /** Removes a resource's rows from an id on: how a failed run takes back what it wrote. */
  deleteFrom(resource: string, fromId: number): Promise<void>;
  /** Puts bytes into the blob store (content-addressed: the same bytes twice are one file). */
  putFile(data: Uint8Array, ext: string): Promise<StoredFile>;
}
