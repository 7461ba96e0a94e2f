/**
 * Issue 18: a property-based fuzz of every operation of the app's OpenAPI document, as every
 * demo role and anonymous, on a real app with the demo content. Properties, for every request:
 * - never a 5xx;
 * - a refusal (4xx, or an envelope with success false) under /api is the JSON envelope with a
 *   Chinese message, and changed nothing (fingerprint.ts says what that covers);
 * - the process keeps answering (an uncaught error fails the run through vitest).
 * README.md beside this file: how to run it longer and how to reproduce a failure.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type FuzzRequest, requestFor } from './arbitraries.js';
import { differences, type Fingerprinter, fingerprinter } from './fingerprint.js';
import { type Operation, operationsOf } from './operations.js';
import { AnswerPools } from './pools.js';
import { FUZZ_ADDRESS, ROLES, type Role, Sessions } from './sessions.js';

/**
 * Requests per operation and role: 1 in `npm test` (2 660 requests: 14–41 s on SQLite, 27–57 s
 * on PostgreSQL on the shared 2-core machine, after 15–60 s of demo seeding); `npm run fuzz`
 * sets FUZZ_RUNS higher.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
/** A fixed seed in `npm test`; FUZZ_SEED=fresh (npm run fuzz) draws one, a number replays one. */
const SEED =
  process.env.FUZZ_SEED === 'fresh'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? 20261126);
/** `METHOD /path` (the document's template) to fuzz only those, comma separated. */
const ONLY = process.env.FUZZ_ONLY?.split(',').map((s) => s.trim());
const ONLY_ROLES = process.env.FUZZ_ROLE?.split(',').map((s) => s.trim());
/** `FUZZ_TRACE=<file>`: every request and its answer, one line each, in `<file>.<database>`. */
const TRACE = process.env.FUZZ_TRACE;

const CJK = /[\u4e00-\u9fff]/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Seeds per operation and role from the run's seed: FUZZ_ONLY replays the same cases. */
function seedFor(key: string): number {
  let h = SEED | 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function describeRequest(role: Role, req: FuzzRequest): string {
  const payload =
    req.payload === undefined
      ? '(none)'
      : typeof req.payload === 'string'
        ? JSON.stringify(
            req.payload.length > 400
              ? `${req.payload.slice(0, 400)}…(${req.payload.length} chars)`
              : req.payload,
          )
        : `bytes(${req.payload.length}) ${req.payload.subarray(0, 200).toString('base64')}`;
  return `${req.method} ${req.url.length > 300 ? `${req.url.slice(0, 300)}…` : req.url} as ${role} [${req.kind}] headers ${JSON.stringify(req.headers)} body ${payload}`;
}

interface Counts {
  requests: number;
  refused: number;
  byStatus: Map<number, number>;
}

/**
 * Each database's run, one line per request: who sent what to which operation, and the status.
 * The seed makes both databases' runs the same requests, so the same line must end the same way
 * on both (the last test) — a status that depends on the database is a defect the fuzz alone
 * does not see: each answer is a 4xx with a message on its own.
 */
const answersBy = new Map<string, string[]>();

describe.each(DB_KINDS)('OpenAPI fuzz on %s', (kind) => {
  let t: TestApp;
  let sessions: Sessions;
  let pools: AnswerPools;
  let prints: Fingerprinter;
  let operations: Operation[];
  let uiDist: string;

  beforeAll(async () => {
    // The demo content: real rows behind real ids on every resource.
    // A built UI (one page), as in production: a fuzzed path that resolves outside the API
    // (`/cloud/api/../0` is `/cloud/0`) gets the site's page, not the 503 of a missing build.
    uiDist = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-fuzz-ui-'));
    writeFileSync(path.join(uiDist, 'index.html'), '<!doctype html><title>万象</title>');
    // Printers of the demo content are addresses nobody answers: short waits, one try, so the
    // jobs an accepted order sends (in the background, after the answer) end quickly.
    const printing = { connectTimeoutMs: 100, writeTimeoutMs: 100, attempts: 1, retryDelayMs: 0 };
    t = await startTestApp(kind, { config: { demoContent: true, uiDist, printing } });
    // The queued jobs of the demo content go out at start: let them end before the first print.
    await t.app.printing.idle();
    sessions = new Sessions(t);
    await sessions.signInAll();
    pools = new AnswerPools(Sessions.ACCOUNTS);
    prints = await fingerprinter(t.app);
    operations = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter(
      (op) => !ONLY || ONLY.includes(op.key),
    );
    // Learn ids from every list the admin can read, before fuzzing anything.
    for (const op of operations) {
      // Not sign-out: it would end the admin's session before the fuzz starts.
      if (op.method !== 'GET' || op.path.includes('{') || op.path.includes('signout')) continue;
      const res = await t.app.inject({ method: 'GET', url: op.path, headers: sessions.headers('admin') });
      if (res.statusCode === 200 && res.headers['content-type']?.toString().includes('json')) {
        pools.learn(op.path, res.json());
      }
    }
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    if (uiDist) rmSync(uiDist, { recursive: true, force: true });
  });

  it(
    `never answers 5xx and a refusal changes nothing (seed ${SEED}, ${RUNS} runs per operation and role)`,
    async () => {
      console.log(
        `[fuzz ${kind}] seed ${SEED}, ${RUNS} runs × ${operations.length} operations × ${ROLES.length} roles`,
      );
      const counts: Counts = { requests: 0, refused: 0, byStatus: new Map() };
      const answers: string[] = [];
      answersBy.set(kind, answers);
      const failures: string[] = [];
      const started = Date.now();
      const timing = { print: 0, inject: 0 };

      const send = async (role: Role, op: Operation, req: FuzzRequest) => {
        const t0 = performance.now();
        const files = !SAFE_METHODS.has(req.method);
        // Work an earlier request left running (print jobs sent after the answer) ends first:
        // its writes belong to that request, not this one.
        await t.app.printing.idle();
        const before = await prints.take(files, 'before');
        const t1 = performance.now();
        timing.print += t1 - t0;
        const res = await t.app.inject({
          method: req.method as 'GET',
          url: req.url,
          headers: { ...req.headers, ...sessions.headers(role) },
          ...(req.payload === undefined ? {} : { payload: req.payload }),
          remoteAddress: FUZZ_ADDRESS,
        });
        counts.requests++;
        const t2 = performance.now();
        timing.inject += t2 - t1;
        if (process.env.FUZZ_DEBUG && t2 - t0 > 100) {
          console.log(
            `[fuzz slow] print ${(t1 - t0).toFixed(0)} ms, request ${(t2 - t1).toFixed(0)} ms: ${req.method} ${req.url.slice(0, 120)} [${req.kind}]`,
          );
        }
        // One line per request and database: the two runs of a seed, compared line by line, show
        // where SQLite and PostgreSQL answer differently (README).
        if (TRACE)
          appendFileSync(
            `${TRACE}.${kind}`,
            `${role} ${req.method} ${req.url.slice(0, 200)} [${req.kind}] ${res.statusCode} ${res.body.slice(0, 200)}\n`,
          );
        answers.push(`${role} ${op.key} [${req.kind}] → ${res.statusCode}`);
        counts.byStatus.set(res.statusCode, (counts.byStatus.get(res.statusCode) ?? 0) + 1);
        const what = () => `${describeRequest(role, req)}\n→ ${res.statusCode} ${res.body.slice(0, 500)}`;
        if (res.statusCode >= 500) {
          // The server's log of it (the stack), to find the cause.
          const logged =
            t.logs.filter((line) => line.includes(String(res.headers['x-request-id'] ?? '?'))).at(-1) ??
            t.logs.at(-1);
          throw new Error(`5xx: ${what()}\n  log: ${logged?.slice(0, 1500)}`);
        }
        let body: { success?: boolean; message?: string } | null = null;
        try {
          body = res.json();
        } catch {
          body = null;
        }
        const refused = res.statusCode >= 400 || body?.success === false;
        if (!refused) {
          prints.allowChanges();
          if (res.statusCode < 300 && body) pools.learn(op.path, body);
        } else {
          counts.refused++;
          if (req.url.startsWith('/api/') && req.method !== 'HEAD') {
            if (typeof body?.message !== 'string' || !CJK.test(body.message)) {
              throw new Error(`refusal without a Chinese message: ${what()}`);
            }
          }
          const t3 = performance.now();
          await t.app.printing.idle();
          const changed = differences(before, await prints.take(files, 'after'));
          timing.print += performance.now() - t3;
          if (changed.length > 0) {
            const detail = process.env.FUZZ_DEBUG
              ? `\n${changed.map((c) => `${c}: ${before.get(c)?.slice(-300)}`).join('\n')}`
              : '';
            throw new Error(`refused yet changed ${changed.join(', ')}: ${what()}${detail}`);
          }
        }
        if (
          role !== 'anonymous' &&
          (res.statusCode === 401 || req.url.includes('signout') || !SAFE_METHODS.has(req.method))
        ) {
          // Signing in again writes (a session, the captcha): not the fuzzed request's doing.
          if (await sessions.ensure(role)) prints.allowChanges();
        }
      };

      for (const op of operations) {
        for (const role of ROLES) {
          if (ONLY_ROLES && !ONLY_ROLES.includes(role)) continue;
          const result = await fc.check(
            fc.asyncProperty(requestFor(op, pools), (req) => send(role, op, req)),
            { seed: seedFor(`${op.key} ${role}`), numRuns: RUNS, endOnFailure: true },
          );
          // Each raw body type of the route (operations.ts rawTypes), every run: a random pick of
          // body kinds may never choose one.
          for (const type of op.rawTypes) {
            const [base] = fc.sample(requestFor(op, pools), {
              seed: seedFor(`${op.key} ${type}`),
              numRuns: 1,
            });
            if (!base) continue;
            const req = {
              ...base,
              headers: { ...base.headers, 'content-type': type },
              payload: Buffer.from('not what the route expects \u0000\n'),
              kind: `raw ${type}`,
            };
            try {
              await send(role, op, req);
            } catch (error) {
              failures.push(
                `${op.key} as ${role}, raw ${type}: ${error instanceof Error ? error.message : error}`,
              );
            }
          }
          if (result.failed) {
            const error =
              result.errorInstance instanceof Error
                ? result.errorInstance.message
                : String(result.errorInstance);
            failures.push(
              `${op.key} as ${role}: ${error}\n  fast-check seed ${result.seed}, path "${result.counterexamplePath}"; ` +
                `replay: FUZZ_SEED=${SEED} FUZZ_ONLY='${op.key}' FUZZ_ROLE=${role}`,
            );
          }
        }
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `[fuzz ${kind}] time before requests ${(timing.print / 1000).toFixed(1)} s, in requests ${(timing.inject / 1000).toFixed(1)} s`,
      );
      const { takes, recomputed, queryMs, filesMs } = prints.stats;
      console.log(
        `[fuzz ${kind}] ${takes} fingerprints (${recomputed} recomputed): database ${(queryMs / 1000).toFixed(1)} s, files ${(filesMs / 1000).toFixed(1)} s`,
      );
      const statuses = [...counts.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
      console.log(
        `[fuzz ${kind}] ${counts.requests} requests in ${seconds.toFixed(1)} s, ${counts.refused} refused; ${statuses.join(' ')}`,
      );
      expect(failures, failures.join('\n\n')).toEqual([]);
      // Still answering.
      expect((await t.app.inject({ method: 'GET', url: '/api/public/config' })).statusCode).toBe(200);
    },
    600_000 * Math.max(1, RUNS / 2),
  );

  it.runIf(kind === DB_KINDS.at(-1) && DB_KINDS.length > 1)(
    'answers each request with the status the other database gave it',
    () => {
      const [first, second] = DB_KINDS.map((k) => answersBy.get(k) ?? []) as [string[], string[]];
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBe(first.length);
      const differing = first
        .map((line, i) => [line, second[i]])
        .filter(([a, b]) => a !== b)
        .map(([a, b]) => `${DB_KINDS[0]}: ${a}\n${DB_KINDS[1]}: ${b}`);
      expect(differing, differing.join('\n\n')).toEqual([]);
    },
  );
});
