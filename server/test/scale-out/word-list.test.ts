/**
 * The sensitive-word filter of one process sees the list as another process changed it, even when
 * that process's machine clock is behind (domain/community/word-filter.ts): an edit stamped below
 * the list's newest `updated_at` leaves the count and the max as they were, and must still be seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordFilterCache } from '../../src/domain/community/word-filter.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';

describe.each(DB_KINDS)('the word list across processes on %s', (kind) => {
  let t: TestApp;
  let db: AnyDb;

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.db as unknown as AnyDb;
  });
  afterAll(async () => t?.close());

  it('an edit stamped by a clock that is behind is seen at the next check', async () => {
    const now = t.clock.now();
    await db
      .insertInto('sensitive_words')
      .values([
        { word: '百家乐', category: 'gambling', enabled: 1, created_at: now, updated_at: now },
        { word: '代开发票', category: 'ad', enabled: 1, created_at: now, updated_at: now + 60_000 },
      ])
      .execute();
    const filter = new WordFilterCache();
    expect((await filter.get(db)).words('快来玩百家乐')).toEqual(['百家乐']);
    // Another machine, its clock a minute behind, disables the first word: its stamp is later
    // than that row's, and still earlier than the newest row's.
    await db
      .updateTable('sensitive_words')
      .set({ enabled: 0, updated_at: now + 1 })
      .where('word', '=', '百家乐')
      .execute();
    expect((await filter.get(db)).words('快来玩百家乐')).toEqual([]);
  });
});
