/**
 * Document search at scale (BENCHMARKS.md: 50 000 documents, ≈100 MB of Chinese text; 2-character
 * and phrase queries p95 ≤ 30 ms). Generates statute-like documents from the demo's legal-text
 * templates, bulk-loads them with their postings, then times `searchDocs` — the function
 * GET /api/public/docs calls — on SQLite, and on PostgreSQL when BENCH_POSTGRES_URL is set
 * (in a throwaway schema).
 *
 *   npx tsx --tsconfig server/tsconfig.json server/bench/doc-search.ts [docs]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chineseNumber, legalText, Rng, SUBJECTS } from '@wanxiang/demo';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { type Posting, postingsOf } from '../src/domain/docs/indexer.js';
import { searchDocs } from '../src/domain/docs/search.js';
import type { AnyDb } from '../src/resources/extensions.js';

const DOCS = Number(process.argv[2] ?? 50_000);
const BAR_P95_MS = 30;
const BATCH = 1_000;
const CATEGORIES = ['法律', '行政法规', '部门规章', '司法解释', '地方性法规', '合同范本'];
const KINDS = ['法', '条例', '办法', '规定', '解释', '细则'];
const PROVINCES = ['北京市', '上海市', '浙江省', '广东省', '江苏省', '四川省', '湖北省', '山东省'];
const VALIDITY = ['effective', 'effective', 'effective', 'amended', 'repealed'];

const QUERIES = {
  '2-character': ['合同', '劳动', '违约', '赔偿', '仲裁', '租赁', '权益', '信息'],
  phrase: ['劳动合同', '违约责任', '经济补偿', '解除劳动合同', '个人信息', '不可抗力', '食品安全', '试用期'],
  '1-character': ['法', '约', '租'],
};

interface GenDoc {
  id: number;
  title: string;
  docNo: string;
  categoryId: number;
  issuer: string;
  publishDate: string;
  validity: string;
  summary: string;
  pages: string[];
}

/** Documents `from`..`to`-1: two random pages (≈ 8 articles) of a statute about a random subject. */
function generate(from: number, to: number): GenDoc[] {
  const out: GenDoc[] = [];
  for (let id = from; id < to; id++) {
    const rng = new Rng(20_250_101, `doc-${id}`);
    const subject = rng.pick(SUBJECTS);
    const kind = rng.pick(KINDS);
    const province = rng.pick(PROVINCES);
    const year = 2000 + rng.int(0, 25);
    const date = `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    const text = legalText(rng, subject, kind, date, 4);
    const first = rng.int(0, Math.max(0, text.pages.length - 2));
    const categoryIndex = rng.int(0, CATEGORIES.length - 1);
    out.push({
      id,
      title: `${rng.chance(0.3) ? province : ''}${subject.name}${kind === '法' ? '管理' : ''}${kind}（第${chineseNumber(rng.int(1, 999))}号）`,
      docNo: `〔${year}〕第${rng.int(1, 300)}号`,
      categoryId: categoryIndex + 1,
      issuer: rng.pick(['国务院', '全国人民代表大会常务委员会', `${province}人民政府`, '最高人民法院']),
      publishDate: date,
      validity: rng.pick(VALIDITY),
      summary: `为规范${subject.scope}，明确${subject.a}与${subject.b}的权利义务，本${kind}对有关事项作出规定。`,
      pages: text.pages.slice(first, first + 2),
    });
  }
  return out;
}

interface Loader {
  docs(rows: GenDoc[], now: number): Promise<void>;
  postings(rows: (readonly [string, number, number, number])[], terms: [number, string][]): Promise<void>;
  finish(): Promise<void>;
}

function sqliteLoader(file: string): Loader {
  const raw = new SqliteDatabase(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -400000');
  raw.exec('create table doc_terms_load (term text, title integer, hits integer, doc_id integer)');
  const insertDoc = raw.prepare(
    `insert into docs (id, created_at, updated_at, title, doc_no, category_id, issuer, publish_date, validity, summary, page_count, views, status, published_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'published', ?)`,
  );
  const insertPage = raw.prepare(
    'insert into doc_pages (created_at, updated_at, doc_id, page_no, content) values (?, ?, ?, ?, ?)',
  );
  const insertPosting = raw.prepare('insert into doc_terms_load values (?, ?, ?, ?)');
  const insertTerms = raw.prepare('insert into doc_index (doc_id, terms, indexed_at) values (?, ?, 0)');
  return {
    async docs(rows, now) {
      raw.transaction(() => {
        for (const d of rows) {
          insertDoc.run(
            d.id,
            now,
            now,
            d.title,
            d.docNo,
            d.categoryId,
            d.issuer,
            d.publishDate,
            d.validity,
            d.summary,
            d.pages.length,
            now,
          );
          for (const [i, content] of d.pages.entries()) insertPage.run(now, now, d.id, i + 1, content);
        }
      })();
    },
    async postings(rows, terms) {
      raw.transaction(() => {
        for (const r of rows) insertPosting.run(r[0], r[1], r[2], r[3]);
        for (const [id, list] of terms) insertTerms.run(id, list);
      })();
    },
    async finish() {
      // Postings go in once, in the clustered order: no random B-tree inserts.
      raw.exec(`insert into doc_terms (term, title, hits, doc_id)
        select term, title, hits, doc_id from doc_terms_load order by term, title desc, hits desc, doc_id desc`);
      raw.exec('drop table doc_terms_load');
      raw.exec('analyze');
      raw.pragma('wal_checkpoint(TRUNCATE)');
      raw.close();
    },
  };
}

function postgresLoader(url: string): Loader {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let prepared = false;
  return {
    async docs(rows, now) {
      if (!prepared) {
        await pool.query('drop index if exists doc_terms_ranked_idx');
        await pool.query('drop index if exists doc_terms_term_doc_idx');
        prepared = true;
      }
      const col = <T>(f: (d: GenDoc) => T) => rows.map(f);
      await pool.query(
        `insert into docs (id, created_at, updated_at, title, doc_no, category_id, issuer, publish_date, validity, summary, page_count, views, status, published_at)
         select id, $2, $2, title, doc_no, category_id, issuer, publish_date, validity, summary, page_count, 0, 'published', $2
         from unnest($1::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[])
           as t(id, title, doc_no, category_id, issuer, publish_date, validity, summary, page_count)`,
        [
          col((d) => d.id),
          now,
          col((d) => d.title),
          col((d) => d.docNo),
          col((d) => d.categoryId),
          col((d) => d.issuer),
          col((d) => d.publishDate),
          col((d) => d.validity),
          col((d) => d.summary),
          col((d) => d.pages.length),
        ],
      );
      const pages = rows.flatMap((d) => d.pages.map((content, i) => [d.id, i + 1, content] as const));
      await pool.query(
        `insert into doc_pages (created_at, updated_at, doc_id, page_no, content)
         select $1, $1, doc_id, page_no, content from unnest($2::int[], $3::int[], $4::text[]) as t(doc_id, page_no, content)`,
        [now, pages.map((p) => p[0]), pages.map((p) => p[1]), pages.map((p) => p[2])],
      );
    },
    async postings(rows, terms) {
      await pool.query(
        'insert into doc_terms select * from unnest($1::text[], $2::int[], $3::int[], $4::bigint[])',
        [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
      );
      await pool.query(
        'insert into doc_index select * from unnest($1::bigint[], $2::text[]) as t(doc_id, terms), (select 0) z',
        [terms.map((t) => t[0]), terms.map((t) => t[1])],
      );
    },
    async finish() {
      await pool.query(
        'create index doc_terms_ranked_idx on doc_terms (term, title desc, hits desc, doc_id desc)',
      );
      await pool.query('create index doc_terms_term_doc_idx on doc_terms (term, doc_id)');
      await pool.query(`select setval(pg_get_serial_sequence('docs', 'id'), (select max(id) from docs))`);
      await pool.query('vacuum analyze doc_terms');
      await pool.query('vacuum analyze docs');
      await pool.query('vacuum analyze doc_pages');
      await pool.end();
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function run(
  label: string,
  database: DatabaseConfig,
  loaderOf: () => Loader,
  sizeOf: () => Promise<string>,
) {
  const handle = openDatabase(database);
  await migrateToLatest(handle.db, handle.dialect);
  const db = handle.db as unknown as AnyDb;
  const now = Date.now();
  await db
    .insertInto('doc_categories')
    .values(
      CATEGORIES.map((name, i) => ({
        id: i + 1,
        name,
        parent_id: null,
        sort: i,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  if (handle.dialect === 'postgres')
    await sql`select setval(pg_get_serial_sequence('doc_categories', 'id'), 100)`.execute(db);

  const loader = loaderOf();
  const started = performance.now();
  let textBytes = 0;
  let postingCount = 0;
  let indexMs = 0;
  for (let from = 1; from <= DOCS; from += BATCH) {
    const docs = generate(from, Math.min(DOCS + 1, from + BATCH));
    await loader.docs(docs, now);
    const t0 = performance.now();
    const rows: (readonly [string, number, number, number])[] = [];
    const terms: [number, string][] = [];
    for (const d of docs) {
      textBytes += Buffer.byteLength(d.title + d.summary + d.pages.join(''));
      const postings: Posting[] = postingsOf({ title: d.title, summary: d.summary, pages: d.pages });
      for (const [term, title, hits] of postings) rows.push([term, title, hits, d.id]);
      terms.push([d.id, postings.map((p) => p[0]).join(' ')]);
    }
    postingCount += rows.length;
    await loader.postings(rows, terms);
    indexMs += performance.now() - t0;
    if (from % 10_000 === 1) process.stderr.write(`  ${label}: ${from - 1 + docs.length} documents\r`);
  }
  const t1 = performance.now();
  await loader.finish();
  indexMs += performance.now() - t1;
  const loadS = (performance.now() - started) / 1000;
  console.log(
    `${label}: ${DOCS.toLocaleString()} documents, ${(textBytes / 1e6).toFixed(1)} MB of text, ${postingCount.toLocaleString()} postings; ` +
      `load ${loadS.toFixed(1)} s of which indexing (postings + index build) ${(indexMs / 1000).toFixed(1)} s; database ${await sizeOf()}`,
  );

  let failed = false;
  for (const [kind, queries] of Object.entries(QUERIES)) {
    for (const q of queries) await searchDocs(db, handle.dialect, { q, page: 1, limit: 20 });
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < 200; i++) {
      const q = queries[i % queries.length] as string;
      const t = performance.now();
      const result = await searchDocs(db, handle.dialect, { q, page: 1 + (i % 3), limit: 20 });
      times.push(performance.now() - t);
      hits += result.page.total;
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const bar =
      kind === '1-character'
        ? '(no bar)'
        : `bar p95 ≤ ${BAR_P95_MS} ms ${p95 <= BAR_P95_MS ? 'OK' : 'MISSED'}`;
    if (kind !== '1-character' && p95 > BAR_P95_MS) failed = true;
    console.log(
      `  ${label} ${kind.padEnd(11)} p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms ` +
        `(avg ${Math.round(hits / times.length)} matches counted) — ${bar}`,
    );
  }
  const phrase = await searchDocs(db, handle.dialect, { q: '劳动合同', page: 1, limit: 3 });
  console.log(
    `  ${label} e.g. 劳动合同 → total ${phrase.page.total}${phrase.totalExact ? '' : '+'}: ${phrase.results.map((r) => r.title).join(' / ')}`,
  );
  await handle.close();
  return failed;
}

let failed = false;
// BENCH_ONLY=postgres skips SQLite (to re-measure one dialect).
const dir =
  process.env.BENCH_ONLY === 'postgres' ? null : mkdtempSync(path.join(os.tmpdir(), 'wanxiang-doc-bench-'));
if (dir)
  try {
    const file = path.join(dir, 'docs.db');
    failed =
      (await run(
        'SQLite',
        { dialect: 'sqlite', file },
        () => sqliteLoader(file),
        async () => {
          const mb = statSync(file).size / 1e6;
          return `${mb.toFixed(0)} MB`;
        },
      )) || failed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

const pgUrl = process.env.BENCH_POSTGRES_URL;
if (pgUrl) {
  const schema = `doc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    failed =
      (await run(
        'PostgreSQL',
        { dialect: 'postgres', url: url.toString(), poolSize: 4 },
        () => postgresLoader(url.toString()),
        async () => {
          const { rows } = await admin.query(
            `select pg_size_pretty(sum(pg_total_relation_size(quote_ident($1) || '.' || quote_ident(tablename)))) as size
           from pg_tables where schemaname = $1`,
            [schema],
          );
          return String(rows[0]?.size);
        },
      )) || failed;
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
} else {
  console.log('PostgreSQL: skipped (set BENCH_POSTGRES_URL=postgres://… to measure it)');
}
process.exit(failed ? 1 : 0);
