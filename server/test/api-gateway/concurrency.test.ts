/**
 * The bar, on SQLite and PostgreSQL: 500 calls at once against a quota of 100 let
 * exactly 100 through, the quota ends at 0, and the metered calls and the roll-up agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { addApi, addKey, addQuota, gw, meterOf, remainingOf, userIdOf } from './fixture.js';

describe.each(DB_KINDS)('gateway quota under concurrency on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('500 parallel calls, quota 100 (free 0 + one paid of 100): exactly 100 answer 200, 400 answer 429', async () => {
    const user = await userIdOf(t, 'guest');
    const api = await addApi(t, {
      code: 'palette-race',
      handler: 'palette',
      freeQuota: 0,
      rateLimitPerMin: 100_000,
    });
    const quota = await addQuota(t, user, api, 100, t.clock.now() + 86_400_000);
    const { id: keyId, key } = await addKey(t, user);

    const answers = await Promise.all(
      Array.from({ length: 500 }, () => gw(t.app, 'palette-race', key, { query: { color: '#1677ff' } })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok.length).toBe(100);
    expect(refused.length).toBe(400);
    expect(ok.every((a) => a.body.data.palette.length === 10)).toBe(true);
    expect(refused.every((a) => /额度已用完/.test(a.body.message))).toBe(true);
    expect(await remainingOf(t, quota)).toBe(0);

    const meter = await meterOf(t, keyId);
    expect(meter).toEqual({
      calls: 500,
      ok: 100,
      errors: 0,
      rateLimited: 0,
      noQuota: 400,
      rollup: { calls: 500, ok: 100, errors: 0, rateLimited: 0, noQuota: 400 },
    });
  });
});
