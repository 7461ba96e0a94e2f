/**
 * Demo content on first start: realistic Chinese data for every resource of the registry, made
 * by code with a fixed seed (the same clock gives the same rows), generated files (images by
 * sharp, a synthesized WAV) in the blob store under `${dataDir}/uploads/`, written through the
 * engine's `insertRows` (its conversions, defaults and hooks) one resource per transaction.
 *
 * Idempotent: nothing happens when the stores table holds any row (live or deleted), and stores
 * are written last, so a run that died half-way is retried by the next start. A run that fails
 * removes the rows it wrote. Call it after the migrations and the initial users (the demo refers
 * to the admin, operator and editor accounts when they exist).
 */
import { RESOURCES, type ResourceDef } from '@wanxiang/core';
import { sql } from 'kysely';
import { inlineLimit } from '../db/limit.js';
import type { AnyDb, EngineExtensions } from '../resources/extensions.js';
import { insertRows } from '../resources/index.js';
import { modelOf } from '../resources/storage.js';
import { seedApiMarket } from './api-market.js';
import { seedCdn } from './cloud.js';
import { seedCommunity } from './community.js';
import { seedArticles, seedPhotos } from './content.js';
import { DemoContext } from './context.js';
import { seedConversations, seedSuppliers } from './crm.js';
import { seedRunners } from './delivery.js';
import { seedDocuments } from './documents.js';
import { Ledger, seedCardProducts, seedPrepaidCards, seedStandaloneMovements } from './finance.js';
import {
  seedAppModules,
  seedBanners,
  seedCouponRules,
  seedCouponTemplates,
  seedDiscounts,
  seedExchangeCodes,
  seedReferralCampaigns,
  Wallet,
} from './marketing.js';
import { seedMovies, seedTracks } from './media.js';
import { seedMerchantApplications } from './merchant.js';
import { seedMonitoring } from './monitoring.js';
import { seedPrinters, seedStores } from './oms.js';
import { settleCustomers, simulateOrders } from './oms-orders.js';
import {
  seedAuditLogs,
  seedConfigVersion,
  seedCustomers,
  seedMemberLevels,
  seedPosters,
  seedStaff,
  seedThirdServices,
} from './people.js';
import { Rng } from './random.js';

export {
  blobIdOf,
  blobPath,
  contentTypeOf,
  FILES_URL_PREFIX,
  putBlob,
  uploadsDir,
} from '../files/blob-store.js';

export interface DemoContentOptions {
  /** The server's data folder: files go to `${dataDir}/uploads/`. */
  dataDir: string;
  /** The areas' hooks the rows are written with (domain/areas.ts `engineExtensions()`). */
  extensions: EngineExtensions;
  /** The clock the demo's times are relative to (default now). */
  now?: number;
  /** The random seed (default fixed, so every install shows the same demo). */
  seed?: number;
  /** Orders to simulate (default 3 000). */
  orders?: number;
  /** Customers (default 300). */
  customers?: number;
  log?: (message: string) => void;
}

export interface DemoContentReport {
  seeded: boolean;
  /** Rows written per resource. */
  counts: Record<string, number>;
  files: number;
  fileBytes: number;
  ms: number;
}

export const DEMO_SEED = 20_250_101;

/** The table whose rows mark the demo (or real data) as present. */
const MARKER = 'stores';

export async function hasDemoContent(db: AnyDb): Promise<boolean> {
  const row = await db
    .selectFrom(modelOf(findDef(MARKER)).table)
    .select('id')
    .limit(inlineLimit(1))
    .executeTakeFirst();
  return row !== undefined;
}

function findDef(name: string): ResourceDef {
  const def = RESOURCES.find((r) => r.name === name);
  if (!def) throw new Error(`unknown resource ${name}`);
  return def;
}

const tabled = () => RESOURCES.filter((def) => modelOf(def).hasTable);

export async function seedDemoContent(db: AnyDb, options: DemoContentOptions): Promise<DemoContentReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  if (await hasDemoContent(db)) return { seeded: false, counts: {}, files: 0, fileBytes: 0, ms: 0 };

  // Ids continue after whatever the tables hold (the initial users), so areas can refer to rows
  // before anything is written.
  const firstIds = new Map<string, number>();
  for (const def of tabled()) {
    const row = (await db
      .selectFrom(modelOf(def).table)
      .select(sql<number | string | null>`max(id)`.as('top'))
      .executeTakeFirst()) as { top: number | string | null } | undefined;
    firstIds.set(def.name, Number(row?.top ?? 0) + 1);
  }
  const accounts = (await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username', 'in', ['admin', 'operator', 'editor'])
    .execute()) as { id: number; username: string }[];
  const idOf = (name: string) => accounts.find((a) => a.username === name)?.id;
  const config = (await db.selectFrom('platform_config').select(['key', 'value']).execute()) as {
    key: string;
    value: string;
  }[];
  const stored = new Map<string, unknown>();
  for (const { key, value } of config) {
    try {
      stored.set(key, JSON.parse(value));
    } catch {
      // Not JSON: left out of the snapshot.
    }
  }

  const now = options.now ?? Date.now();
  const firstUser = firstIds.get('users') ?? 1;
  const admin = idOf('admin') ?? firstUser;
  const ctx = new DemoContext(options.dataDir, now, new Rng(options.seed ?? DEMO_SEED), firstIds, {
    admin,
    operator: idOf('operator') ?? admin,
    editor: idOf('editor') ?? admin,
  });

  generate(ctx, options, stored);
  await ctx.settle();
  const generatedMs = performance.now() - started;
  log(
    `demo content generated in ${Math.round(generatedMs)} ms (${ctx.files} files, ${(ctx.fileBytes / 1e6).toFixed(1)} MB)`,
  );

  const counts = await write(db, ctx, options.extensions);
  const ms = Math.round(performance.now() - started);
  log(`demo content written: ${Object.values(counts).reduce((a, b) => a + b, 0)} rows in ${ms} ms`);
  return { seeded: true, counts, files: ctx.files, fileBytes: ctx.fileBytes, ms };
}

/** Every area, in the order their references need. */
function generate(ctx: DemoContext, options: DemoContentOptions, stored: ReadonlyMap<string, unknown>): void {
  const levels = seedMemberLevels(ctx);
  const customers = seedCustomers(ctx, options.customers ?? 300);
  const stores = seedStores(ctx);
  seedPrinters(ctx, stores);
  seedStaff(
    ctx,
    stores.map((s) => s.row),
  );
  const runners = seedRunners(ctx, stores);

  const discounts = seedDiscounts(ctx, stores);
  const templates = seedCouponTemplates(ctx, stores);
  seedCouponRules(ctx, templates);
  const wallet = new Wallet(ctx);
  seedExchangeCodes(ctx, templates, customers, wallet);
  const campaigns = seedReferralCampaigns(ctx, templates);
  seedBanners(ctx, stores);
  seedAppModules(ctx);

  const products = seedCardProducts(ctx);
  const cards = seedPrepaidCards(ctx, products, customers);
  const balance = new Ledger(ctx, 'balance', ctx.random('balance'));
  const points = new Ledger(ctx, 'points', ctx.random('points'));
  seedStandaloneMovements(ctx, customers, balance, points);
  seedApiMarket(ctx, customers, balance);

  simulateOrders(
    ctx,
    { stores, customers, runners, discounts, templates, campaigns, levels, cards, wallet, balance, points },
    options.orders ?? 3000,
  );
  wallet.flush();
  balance.flush(customers);
  points.flush(customers);
  settleCustomers(ctx, customers, levels);

  seedSuppliers(ctx);
  seedConversations(ctx, stores, customers);
  seedCommunity(ctx, customers);
  seedPhotos(ctx);
  seedArticles(ctx);
  seedDocuments(ctx, customers);
  seedTracks(ctx);
  seedMovies(ctx);
  const cdn = seedCdn(ctx);
  seedMonitoring(ctx, customers, cdn);
  seedMerchantApplications(ctx);
  seedThirdServices(ctx);
  seedPosters(ctx);
  seedConfigVersion(ctx, stored);
  seedAuditLogs(ctx);
}

/** One transaction per resource, the marker table last; a failure removes what was written. */
async function write(
  db: AnyDb,
  ctx: DemoContext,
  extensions: EngineExtensions,
): Promise<Record<string, number>> {
  const order = tabled()
    .filter((def) => ctx.rows(def.name).length > 0)
    .sort((a, b) => Number(a.name === MARKER) - Number(b.name === MARKER));
  const written: { def: ResourceDef; from: number }[] = [];
  const counts: Record<string, number> = {};
  try {
    for (const def of order) {
      const rows = ctx.rows(def.name);
      await insertRows(db, def, rows, { now: ctx.now, returnIds: false, extensions });
      written.push({ def, from: rows[0]?.id as number });
      counts[def.name] = rows.length;
    }
  } catch (error) {
    for (const { def, from } of written.reverse()) {
      await db
        .deleteFrom(modelOf(def).table)
        .where('id', '>=', from)
        .execute()
        .catch(() => undefined);
    }
    throw error;
  }
  return counts;
}
