/**
 * The demo content on a real database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set):
 * seeded once, every resource filled, rows valid by the registry's own validation, relations
 * resolving, money and ledgers consistent, and the generated files real.
 */
import { readFileSync } from 'node:fs';
import {
  type FieldDef,
  fieldValueSchema,
  getResource,
  isExchangeCode,
  RESOURCES,
  type ResourceDef,
  validateBody,
  validateRow,
  writableFields,
} from '@wanxiang/core';
import { type DemoContentReport, seedDemoContent, wavDuration } from '@wanxiang/demo';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStore } from '../../src/demo-store.js';
import { blobIdOf, blobPath } from '../../src/files/blob-store.js';
import { type DbRow, modelOf, toWireRow, type WireRow } from '../../src/resources/storage.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { adminApi } from '../resources/helpers.js';
import { walkProblem } from './order-walk.js';

/** The resources with a table, known once the app's areas have said how they store theirs. */
let tabled: ResourceDef[] = [];

describe.each(DB_KINDS)('demo content (%s)', (kind) => {
  let t: TestApp;
  let report: DemoContentReport;
  const raw = new Map<string, DbRow[]>();

  /** Every stored row of a resource, as stored (cached: the content does not change). */
  async function stored(name: string): Promise<DbRow[]> {
    let rows = raw.get(name);
    if (!rows) {
      const def = RESOURCES.find((r) => r.name === name) as ResourceDef;
      rows = (await t.app.db
        .selectFrom(modelOf(def).table as 'users')
        .selectAll()
        .orderBy('id')
        .execute()) as DbRow[];
      raw.set(name, rows);
    }
    return rows;
  }

  async function wire(name: string): Promise<WireRow[]> {
    const def = RESOURCES.find((r) => r.name === name) as ResourceDef;
    return (await stored(name)).map((row) => toWireRow(modelOf(def), row));
  }

  async function tableCounts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const def of tabled) {
      const row = await t.app.db
        .selectFrom(modelOf(def).table as 'users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      out[def.name] = Number(row.n);
    }
    return out;
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    tabled = RESOURCES.filter((def) => modelOf(def).hasTable);
    report = await seedDemoContent(demoStore(t.app.resources, t.app.blobs), { now: t.clock.now() });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('seeds on the first run only; a second run changes nothing', async () => {
    expect(report.seeded).toBe(true);
    const before = await tableCounts();
    const again = await seedDemoContent(demoStore(t.app.resources, t.app.blobs), {
      now: t.clock.now() + 60_000,
    });
    expect(again.seeded).toBe(false);
    expect(await tableCounts()).toEqual(before);
  });

  it('answers every list over HTTP as the engine makes its rows (on SQLite, SQLite writes them)', async () => {
    const api = await adminApi(t);
    for (const def of RESOURCES) {
      for (const query of ['limit=50', 'limit=7&page=2', 'limit=5&sort=-id']) {
        const answer = await api.get(`/api/admin/${def.name}?${query}`);
        expect(answer.status, `${def.name}?${query}`).toBe(200);
        const raw = Object.fromEntries(new URLSearchParams(query));
        const expected = JSON.parse(JSON.stringify(await t.app.resources.list(def, raw)));
        expect(answer.body.data, `${def.name}?${query}`).toEqual(expected);
      }
    }
  });

  it('fills every resource that has a table', async () => {
    const counts = await tableCounts();
    const empty = tabled.filter((def) => (counts[def.name] ?? 0) === 0).map((def) => def.name);
    expect(empty).toEqual([]);
    expect(counts.orders).toBeGreaterThanOrEqual(2900);
    expect(counts.stores).toBeGreaterThanOrEqual(6);
    expect(counts.users).toBeGreaterThanOrEqual(300);
  });

  it('writes rows that pass the registry validation', async () => {
    const problems: string[] = [];
    for (const def of tabled) {
      const model = modelOf(def);
      const rows = await stored(def.name);
      // The first, the last and an even spread in between.
      const step = Math.max(1, Math.floor(rows.length / 25));
      const sample = rows.filter((_r, i) => i % step === 0 || i === rows.length - 1);
      for (const row of sample) {
        const w = toWireRow(model, row);
        const body: Record<string, unknown> = {};
        for (const [name, field] of writableFields(def)) {
          const fs = model.byName.get(name);
          if (!fs || fs.column === null) continue; // kept elsewhere (users.roles)
          if (field.writeOnly) {
            // Not readable: checked from its column. Hashed passwords and the key the demo
            // deliberately does not keep stand in with a placeholder.
            const value = row[fs.column];
            body[name] = fs.hashed || value === null || value === '' ? 'placeholder-secret-1' : value;
            continue;
          }
          if (w[name] !== null) body[name] = w[name];
        }
        const result = validateBody(def, body, 'create');
        if (!result.ok) problems.push(`${def.name}#${w.id}: ${JSON.stringify(result.fields)}`);
        // And the definition's cross-field rules, so the row can be edited and saved as it is.
        const rules = validateRow(def, w);
        if (!rules.ok) problems.push(`${def.name}#${w.id}: ${JSON.stringify(rules.fields)}`);
        // Read-only values must still be values of their field.
        for (const [name, field] of Object.entries(def.fields) as [string, FieldDef][]) {
          if (!field.readOnly || w[name] === null || w[name] === undefined) continue;
          const parsed = fieldValueSchema(field).safeParse(w[name]);
          if (!parsed.success)
            problems.push(`${def.name}#${w.id}.${name}: ${parsed.error.issues[0]?.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('points every relation at an existing row', async () => {
    const ids = new Map<string, Set<number>>();
    const idsOf = async (name: string) => {
      let set = ids.get(name);
      if (!set) {
        set = new Set((await stored(name)).map((r) => Number(r.id)));
        ids.set(name, set);
      }
      return set;
    };
    const dangling: string[] = [];
    for (const def of tabled) {
      const model = modelOf(def);
      const relations = model.stored.filter(
        (fs) => fs.field.type === 'relation' || fs.field.type === 'relationList',
      );
      if (relations.length === 0) continue;
      for (const row of await wire(def.name)) {
        for (const fs of relations) {
          const target = (fs.field as { resource: string }).resource;
          const value = row[fs.name];
          const list = value === null ? [] : Array.isArray(value) ? value : [value];
          for (const id of list as number[])
            if (!(await idsOf(target)).has(id))
              dangling.push(`${def.name}#${row.id}.${fs.name} → ${target}#${id}`);
        }
      }
    }
    expect(dangling.slice(0, 20)).toEqual([]);
  });

  it('makes every order add up, in every status, with its timestamps', async () => {
    const orders = await wire('orders');
    const refunds = await wire('orderRefunds');
    const refunded = new Map<number, number>();
    for (const r of refunds)
      if (r.status === 'refunded')
        refunded.set(r.orderId as number, (refunded.get(r.orderId as number) ?? 0) + (r.amountFen as number));
    const statuses = new Set(orders.map((o) => o.status));
    const statusField = getResource('orders').fields.status as { options: readonly { value: string }[] };
    expect([...statuses].sort()).toEqual(statusField.options.map((o) => o.value).sort());
    const now = t.clock.now();
    const wrong: string[] = [];
    for (const o of orders) {
      const items = o.items as { qty: number; unitPriceFen: number }[];
      const goods = items.reduce((s, i) => s + i.qty * i.unitPriceFen, 0);
      const payable = Math.max(
        0,
        goods +
          (o.packingFen as number) +
          (o.deliveryFen as number) -
          (o.discountFen as number) -
          (o.couponFen as number),
      );
      if (o.goodsFen !== goods) wrong.push(`${o.orderNo}: goods ${o.goodsFen} ≠ ${goods}`);
      if (o.payableFen !== payable) wrong.push(`${o.orderNo}: payable ${o.payableFen} ≠ ${payable}`);
      if (o.paidFen !== (o.paidAt ? payable : 0)) wrong.push(`${o.orderNo}: paid ${o.paidFen}`);
      if (o.refundedFen !== (refunded.get(o.id) ?? 0)) wrong.push(`${o.orderNo}: refunded ${o.refundedFen}`);
      if ((o.refundedFen as number) > (o.paidFen as number))
        wrong.push(`${o.orderNo}: refunded more than paid`);
      // A walk on core's order machine: the stamps of the steps to its status, in time order, none
      // in the future.
      const problem = walkProblem(o, now);
      if (problem) wrong.push(`${o.orderNo}: ${problem}`);
      if ((o.status === 'cancelled') !== (o.cancelledAt !== null && o.cancelReason !== null))
        wrong.push(`${o.orderNo}: cancel fields`);
      if (o.status === 'delivering' && o.runnerId === null)
        wrong.push(`${o.orderNo}: delivering without a runner`);
    }
    expect(wrong.slice(0, 20)).toEqual([]);

    // Each delivery belongs to a delivery order and names the order's runner.
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const d of await wire('deliveries')) {
      const order = byId.get(d.orderId as number);
      expect(order?.fulfilment).toBe('delivery');
      expect(d.runnerId).toBe(order?.runnerId);
    }
    // History: one row per transition, ending at the order's status.
    const lastHistory = new Map<number, string>();
    for (const h of await wire('orderHistory')) lastHistory.set(h.orderId as number, h.toStatus as string);
    for (const o of orders.slice(0, 500)) expect(lastHistory.get(o.id)).toBe(o.status);
  });

  it('keeps balances and points at the end of their ledger chains', async () => {
    const users = await wire('users');
    for (const [ledger, change, after, field] of [
      ['balanceLedger', 'changeFen', 'balanceAfterFen', 'balanceFen'],
      ['pointsLedger', 'change', 'balanceAfter', 'points'],
    ] as const) {
      const entries = (await wire(ledger)).sort(
        (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id,
      );
      const running = new Map<number, number>();
      const broken: string[] = [];
      for (const e of entries) {
        const next = (running.get(e.userId as number) ?? 0) + (e[change] as number);
        if (next !== e[after] || next < 0) broken.push(`${ledger}#${e.id}: ${next} ≠ ${e[after]}`);
        running.set(e.userId as number, next);
      }
      for (const u of users)
        if ((running.get(u.id) ?? 0) !== u[field])
          broken.push(`user ${u.username}: ${field} ${u[field]} ≠ ${running.get(u.id) ?? 0}`);
      expect(broken.slice(0, 20)).toEqual([]);
    }
    // Levels follow points.
    const levels = (await wire('memberLevels')).sort(
      (a, b) => (b.pointsThreshold as number) - (a.pointsThreshold as number),
    );
    for (const u of users.filter((u) => u.memberLevelId !== null)) {
      const level = levels.find((l) => (u.points as number) >= (l.pointsThreshold as number));
      expect(u.memberLevelId).toBe(level?.id);
    }
  });

  it('keeps no secret in clear', async () => {
    for (const key of await stored('apiKeys')) {
      expect(key.secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(key.prefix).toMatch(/^wx_[A-Za-z0-9_-]{8}$/);
    }
    for (const d of await stored('sslDeployments')) expect(d.private_key).toBe('');
    for (const s of await stored('thirdServices')) expect(s.secret).toBeNull();
    const codes = (await wire('exchangeCodes')).map((c) => c.code as string);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(isExchangeCode(code), code).toBe(true);
    for (const m of await wire('merchantApplications')) {
      expect(m.idNumberMasked).toMatch(/\*{4,}/);
      expect(m.accountNumberMasked).toMatch(/\*{4,}/);
    }
  });

  it('stores real JPEG photos with their thumbnails', async () => {
    const file = (url: unknown) => {
      const id = blobIdOf(url as string);
      expect(id, String(url)).not.toBeNull();
      return readFileSync(blobPath(t.config.dataDir, id as string) as string);
    };
    const photos = await wire('photos');
    expect(photos.length).toBeGreaterThanOrEqual(20);
    for (const p of photos) {
      const full = file(p.image);
      const thumb = file(p.thumbnail);
      expect([...full.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect([...thumb.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
    const meta = await sharp(file(photos[0]?.image)).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 800]);
    const thumbMeta = await sharp(file(photos[0]?.thumbnail)).metadata();
    expect([thumbMeta.width, thumbMeta.height]).toEqual([400, 267]);
    for (const m of await wire('movies'))
      expect([...file(m.poster).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(report.fileBytes).toBeLessThan(6_000_000);
  });

  it('stores a real WAV file for every track, as long as it says', async () => {
    for (const track of await wire('tracks')) {
      const wav = readFileSync(
        blobPath(t.config.dataDir, blobIdOf(track.audio as string) as string) as string,
      );
      expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
      expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
      expect(wav.readUInt16LE(22)).toBe(1); // mono
      expect(wav.readUInt32LE(24)).toBe(22_050);
      expect(wav.readUInt16LE(34)).toBe(16);
      const seconds = wavDuration(wav) as number;
      expect(seconds).toBeGreaterThan(1);
      expect(track.durationS).toBe(Math.max(1, Math.round(seconds)));
    }
  });

  it('splits documents into pages of legal text with the common words', async () => {
    const docs = await wire('docs');
    const pages = await wire('docPages');
    for (const doc of docs) {
      const own = pages.filter((p) => p.docId === doc.id).map((p) => p.pageNo);
      expect(own).toEqual(own.map((_p, i) => i + 1));
      expect(doc.pageCount).toBe(own.length);
    }
    const texts = pages.map((p) => p.content as string);
    const share = (word: string) => texts.filter((text) => text.includes(word)).length / texts.length;
    expect(share('合同')).toBeGreaterThan(0.8);
    expect(share('法')).toBeGreaterThan(0.8);
    for (const word of ['劳动', '劳动合同', '违约', '赔偿', '当事人'])
      expect(share(word), word).toBeGreaterThan(0.1);
    expect(texts.some((text) => text.startsWith('第一章') && text.includes('第一条'))).toBe(true);
    // Search logs report what a search over published pages finds.
    const logs = await wire('docSearchLogs');
    expect(logs.some((l) => l.q === '合同' && (l.hits as number) > 0)).toBe(true);
  });

  it('puts every merchant-application state and some pending topics in the review queues', async () => {
    const states = new Set((await wire('merchantApplications')).map((m) => m.status));
    expect([...states].sort()).toEqual(
      [
        'auditing',
        'canceled',
        'editing',
        'finished',
        'rejected',
        'signing',
        'to_be_confirmed',
        'to_be_signed',
      ].sort(),
    );
    for (const m of await wire('merchantApplications'))
      expect(m.status === 'rejected').toBe(Array.isArray(m.auditDetail) && m.auditDetail.length > 0);
    expect((await wire('bbsTopics')).some((topic) => topic.status === 'pending')).toBe(true);
    expect(new Set((await wire('lawyers')).map((l) => l.status))).toEqual(
      new Set(['pending', 'verified', 'rejected']),
    );
    const runs = await wire('monitorRuns');
    expect(runs.some((r) => r.important === true && r.status === 'down')).toBe(true);
    expect(new Set((await wire('monitorJobs')).map((j) => j.kind))).toEqual(
      new Set(['http', 'keyword', 'browser']),
    );
  });
});
