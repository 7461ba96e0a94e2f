/**
 * Demo content on first start: realistic Chinese data for every resource of the registry, made
 * by code with a fixed seed (the same clock gives the same rows), generated files (images by
 * sharp, a synthesized WAV) put into the server's blob store, written through the engine's
 * `insertRows` (its conversions, defaults and hooks) one resource per transaction — both through
 * the `DemoStore` ports the server hands over (./store.ts).
 *
 * Idempotent: nothing happens when the stores table holds any row (live or deleted), and stores
 * are written last, so a run that died half-way is retried by the next start. A run that fails
 * removes the rows it wrote. Call it after the migrations and the initial users (the demo refers
 * to the admin, operator and editor accounts when they exist).
 */
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
import { seedPrinters, seedPrintJobs, seedStores } from './oms.js';
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
import type { DemoStore } from './store.js';

export { encodeWav, MELODIES, renderMelody, wavDuration } from './audio.js';
export { atChinaTime, DAY, dateOf, HOUR, MINUTE, type Row, type Staff } from './context.js';
export { chineseNumber, legalText, SUBJECTS } from './legal-text.js';
export { BRANDS, type Brand, type MenuItem, skusOf } from './oms.js';
export * from './order-machine.js';
export { Rng } from './random.js';
export type { DemoStore, StoredFile } from './store.js';
export {
  CITY_AREA_CODE,
  type City,
  homeAddress,
  landline,
  mobile,
  near,
  type PersonName,
  PLACES,
  type Place,
  personName,
} from './zh.js';

export interface DemoContentOptions {
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

export function hasDemoContent(store: Pick<DemoStore, 'hasRows'>): Promise<boolean> {
  return store.hasRows(MARKER);
}

export async function seedDemoContent(
  store: DemoStore,
  options: DemoContentOptions = {},
): Promise<DemoContentReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  if (await hasDemoContent(store)) return { seeded: false, counts: {}, files: 0, fileBytes: 0, ms: 0 };

  // Ids continue after whatever the tables hold (the initial users), so areas can refer to rows
  // before anything is written.
  const firstIds = await store.nextIds();
  const accounts = await store.userIds(['admin', 'operator', 'editor']);
  const idOf = (name: string) => accounts.get(name);
  const stored = await store.config();

  const now = options.now ?? Date.now();
  const firstUser = firstIds.get('users') ?? 1;
  const admin = idOf('admin') ?? firstUser;
  const ctx = new DemoContext(store, now, new Rng(options.seed ?? DEMO_SEED), firstIds, {
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

  const counts = await write(store, [...firstIds.keys()], ctx);
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
  seedPrintJobs(ctx);

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
  store: DemoStore,
  tabled: readonly string[],
  ctx: DemoContext,
): Promise<Record<string, number>> {
  const order = tabled
    .filter((name) => ctx.rows(name).length > 0)
    .sort((a, b) => Number(a === MARKER) - Number(b === MARKER));
  const written: { name: string; from: number }[] = [];
  const counts: Record<string, number> = {};
  try {
    for (const name of order) {
      const rows = ctx.rows(name);
      await store.insertRows(name, rows, { now: ctx.now });
      written.push({ name, from: rows[0]?.id as number });
      counts[name] = rows.length;
    }
  } catch (error) {
    for (const { name, from } of written.reverse()) await store.deleteFrom(name, from).catch(() => undefined);
    throw error;
  }
  return counts;
}
