/**
 * Delivery (core definitions/delivery.ts): runners per city, serving that city's stores. Their
 * deliveries come from the order simulation, which then sets each runner's status (delivering
 * while they carry an order), position and today's count.
 */
import { DAY, type DemoContext, type Row } from './context.js';
import type { Store } from './oms.js';
import { type City, mobiles, near, personNames } from './zh.js';

export interface Runner {
  row: Row & { status: string; todayCount: number };
  city: City;
  storeIds: readonly number[];
}

export function seedRunners(ctx: DemoContext, stores: readonly Store[]): Runner[] {
  const rng = ctx.random('runners');
  const perCity: Record<City, number> = { 杭州: 12, 上海: 8, 北京: 10 };
  const total = Object.values(perCity).reduce((a, b) => a + b, 0);
  const names = personNames(rng, total);
  const phones = mobiles(rng, total);
  const runners: Runner[] = [];
  let n = 0;
  for (const city of Object.keys(perCity) as City[]) {
    const local = stores.filter((s) => s.city === city);
    for (let i = 0; i < perCity[city]; i++) {
      const home = rng.pick(local);
      // Most serve the stores of their city; some any store (an empty list).
      const storeIds = rng.chance(0.25)
        ? []
        : rng.sample(local, rng.int(1, local.length)).map((s) => s.row.id);
      const at = ctx.now - rng.int(30, 360) * DAY;
      const point = near(rng, home.point.lng, home.point.lat, 2000);
      const row = ctx.add('runners', {
        name: names[n]?.name,
        phone: phones[n],
        status: 'offline',
        storeIds,
        vehicle: rng.weighted([
          ['ebike', 14],
          ['motorcycle', 3],
          ['bicycle', 1],
          ['car', 1],
          ['onFoot', 1],
        ] as const),
        lng: point.lng,
        lat: point.lat,
        todayCount: 0,
        createdAt: at,
        updatedAt: at,
      });
      runners.push({ row, city, storeIds });
      n++;
    }
  }
  return runners;
}

/** Runners who may carry an order of a store. */
export function runnersFor(runners: readonly Runner[], store: Store): Runner[] {
  return runners.filter(
    (r) => r.city === store.city && (r.storeIds.length === 0 || r.storeIds.includes(store.row.id)),
  );
}
