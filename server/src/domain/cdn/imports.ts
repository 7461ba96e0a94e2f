/**
 * One import = one transaction: the `cdn_imports` row (unique per domain and SHA-256 of the
 * decompressed file) and every hour's upsert into `cdn_usage`. The import row goes first: when
 * the same file was already imported (or is being imported by another request right now —
 * PostgreSQL makes the second insert wait for the first to commit), nothing is added and the
 * earlier import is answered. Any failure rolls back the whole import.
 *
 * Overlapping files (two different files holding some of the same lines) are counted twice:
 * dedupe is per file, as logrotate writes disjoint files. Line-level dedupe would need a key
 * per line (a million rows per million lines) for a case rotation does not produce.
 */
import { type HourUsage, hitRatioOf } from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';
import type { LogSummary, MalformedSample } from './read-log.js';

export interface ImportRecord {
  id: number;
  domainId: number;
  domain: string | null;
  sha256: string;
  fileName: string | null;
  lines: number;
  malformed: number;
  requests: number;
  bytes: number;
  hours: number;
  firstHour: string | null;
  lastHour: string | null;
  /** False when no line had a cache verdict: the hit ratio of these hours is unknown. */
  hasCache: boolean;
  samples: MalformedSample[];
  userId: number | null;
  at: string;
}

export interface ImportOutcome {
  /** True when this file was imported before: nothing was added. */
  alreadyImported: boolean;
  import: ImportRecord;
}

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();

// biome-ignore lint/suspicious/noExplicitAny: rows of a table the typed schema does not list
export function importRecordOf(row: any): ImportRecord {
  return {
    id: Number(row.id),
    domainId: Number(row.domain_id),
    domain: row.domain ?? null,
    sha256: String(row.sha256),
    fileName: row.file_name ?? null,
    lines: Number(row.lines),
    malformed: Number(row.malformed),
    requests: Number(row.requests),
    bytes: Number(row.bytes),
    hours: Number(row.hours),
    firstHour: row.first_hour === null ? null : iso(row.first_hour),
    lastHour: row.last_hour === null ? null : iso(row.last_hour),
    hasCache: Number(row.has_cache) === 1,
    samples: JSON.parse(String(row.samples)) as MalformedSample[],
    userId: row.user_id === null ? null : Number(row.user_id),
    at: iso(row.at),
  };
}

const UPSERT_BATCH = 200;

async function upsertHours(
  trx: AnyDb,
  domainId: number,
  hours: readonly HourUsage[],
  now: number,
): Promise<void> {
  for (let i = 0; i < hours.length; i += UPSERT_BATCH) {
    const batch = hours.slice(i, i + UPSERT_BATCH);
    // Atomic increments: two different files of one hour imported at once both count.
    const written = (await trx
      .insertInto('cdn_usage')
      .values(
        batch.map((h) => ({
          created_at: now,
          updated_at: now,
          domain_id: domainId,
          hour: h.hour,
          requests: h.requests,
          bytes: h.bytes,
          hits: h.hits,
          misses: h.misses,
          status2xx: h.status2xx,
          status3xx: h.status3xx,
          status4xx: h.status4xx,
          status5xx: h.status5xx,
          hit_ratio: hitRatioOf(h.hits, h.misses),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['domain_id', 'hour']).doUpdateSet({
          updated_at: now,
          requests: sql`cdn_usage.requests + excluded.requests`,
          bytes: sql`cdn_usage.bytes + excluded.bytes`,
          hits: sql`cdn_usage.hits + excluded.hits`,
          misses: sql`cdn_usage.misses + excluded.misses`,
          status2xx: sql`cdn_usage.status2xx + excluded.status2xx`,
          status3xx: sql`cdn_usage.status3xx + excluded.status3xx`,
          status4xx: sql`cdn_usage.status4xx + excluded.status4xx`,
          status5xx: sql`cdn_usage.status5xx + excluded.status5xx`,
        }),
      )
      .returning(['id', 'hits', 'misses', 'hit_ratio'])
      .execute()) as {
      id: number | string;
      hits: number | string;
      misses: number | string;
      hit_ratio: number | null;
    }[];
    // The ratio from the summed counts (core's rule); the rows are this transaction's now. A row
    // with no verdict at all keeps what it had (null, or a figure from elsewhere).
    for (const row of written) {
      const ratio = hitRatioOf(Number(row.hits), Number(row.misses));
      if (ratio === null || ratio === row.hit_ratio) continue;
      await trx.updateTable('cdn_usage').set({ hit_ratio: ratio }).where('id', '=', Number(row.id)).execute();
    }
  }
}

export async function recordImport(
  db: AnyDb,
  input: {
    domainId: number;
    fileName: string | null;
    userId: number | null;
    now: number;
    summary: LogSummary;
  },
): Promise<ImportOutcome> {
  const { summary, domainId, now } = input;
  const hours = summary.hours;
  return db.transaction().execute(async (trx: AnyDb) => {
    const inserted = (await trx
      .insertInto('cdn_imports')
      .values({
        domain_id: domainId,
        sha256: summary.sha256,
        file_name: input.fileName,
        lines: summary.lines,
        malformed: summary.malformed,
        requests: summary.requests,
        bytes: summary.bytes,
        hours: hours.length,
        first_hour: hours[0]?.hour ?? null,
        last_hour: hours[hours.length - 1]?.hour ?? null,
        has_cache: summary.cacheLines > 0 ? 1 : 0,
        samples: JSON.stringify(summary.samples),
        user_id: input.userId,
        at: now,
      })
      .onConflict((oc) => oc.columns(['domain_id', 'sha256']).doNothing())
      .returningAll()
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!inserted) {
      const earlier = await trx
        .selectFrom('cdn_imports')
        .selectAll()
        .where('domain_id', '=', domainId)
        .where('sha256', '=', summary.sha256)
        .executeTakeFirstOrThrow();
      return { alreadyImported: true, import: importRecordOf(earlier) };
    }
    await upsertHours(trx, domainId, hours, now);
    return { alreadyImported: false, import: importRecordOf(inserted) };
  });
}

/** The imports, newest first; one domain's or all. */
export async function listImports(
  db: AnyDb,
  query: { domainId?: number; limit: number; before?: number },
): Promise<ImportRecord[]> {
  let q = db
    .selectFrom('cdn_imports as i')
    .leftJoin('cdn_domains as d', 'd.id', 'i.domain_id')
    .selectAll('i')
    .select('d.domain as domain')
    .orderBy('i.id', 'desc')
    .limit(query.limit);
  if (query.domainId !== undefined) q = q.where('i.domain_id', '=', query.domainId);
  if (query.before !== undefined) q = q.where('i.id', '<', query.before);
  return ((await q.execute()) as unknown[]).map(importRecordOf);
}
