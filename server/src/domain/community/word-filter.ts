/**
 * The sensitive-word filter of one server (one database): core's SensitiveWordFilter over the
 * enabled rows of sensitiveWords, built when first needed and rebuilt when the list changed.
 *
 * "Changed" is a cheap aggregate — (count, max(updated_at), sum(updated_at)) of the whole table —
 * read in the caller's transaction at every check, so a word added, edited, disabled or deleted
 * by any process (another server on the same database) is seen by the next post here: every
 * write moves its row's updated_at strictly later (the engine's stamp), which moves the sum even
 * when another machine's clock is behind and the max stays; a delete lowers the count. Building
 * 10 000 words takes a few hundred ms, done once per change.
 */
import { SensitiveWordFilter } from '@wanxiang/core';
import { sql } from 'kysely';
import { dataEpoch } from '../../db/data-epoch.js';
import type { AnyDb } from '../../resources/extensions.js';

export class WordFilterCache {
  private key: string | null = null;
  private filter = new SensitiveWordFilter([]);

  /** The filter for the list as `db` (a transaction, on SQLite the only connection) sees it. */
  async get(db: AnyDb): Promise<SensitiveWordFilter> {
    const stamp = (await db
      .selectFrom('sensitive_words')
      .select([
        sql<number | string>`count(*)`.as('n'),
        sql<number | string | null>`max(updated_at)`.as('at'),
        sql<number | string | null>`sum(updated_at)`.as('sum'),
      ])
      .executeTakeFirst()) as
      | { n: number | string; at: number | string | null; sum: number | string | null }
      | undefined;
    // As text: PostgreSQL's sum of bigints is a numeric, past what a double holds exactly.
    // With the data epoch: a restored list may have the same count and stamps as the old one.
    const key = `${dataEpoch()}:${stamp?.n ?? 0}:${stamp?.at ?? 0}:${stamp?.sum ?? 0}`;
    if (key === this.key) return this.filter;
    const rows = (await db
      .selectFrom('sensitive_words')
      .select(['word', 'category', 'enabled'])
      .orderBy('id')
      .execute()) as { word: string; category: string | null; enabled: number | boolean | null }[];
    this.filter = new SensitiveWordFilter(rows.filter((r) => Number(r.enabled ?? 1) === 1));
    this.key = key;
    return this.filter;
  }
}
