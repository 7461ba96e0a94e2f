/**
 * Cloud CDN (core definitions/cloud.ts): accelerated domains under the reserved example domain,
 * with hourly usage for the last seven days (a daily curve, weekends busier for images).
 */
import { CHINA_OFFSET_MS, cnameOf } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, type Row } from './context.js';

const DOMAINS = [
  [
    'static.example.com',
    'https://origin.example.com',
    [
      ['*.js', 2_592_000],
      ['*.css', 2_592_000],
      ['/static/', 86_400],
    ],
    38_000,
    180_000,
    'enabled',
  ],
  [
    'img.example.com',
    'https://oss-origin.example.com:8443',
    [
      ['*.jpg', 604_800],
      ['*.png', 604_800],
      ['*.webp', 604_800],
    ],
    52_000,
    95_000,
    'enabled',
  ],
  ['download.example.com', 'http://10.0.8.21:8080', [['/files/', 86_400]], 1_800, 12_000_000, 'enabled'],
  ['*.activity.example.com', 'https://activity-origin.example.com', [['/', 600]], 9_000, 60_000, 'enabled'],
  [
    'video.example.com',
    'https://media-origin.example.com',
    [
      ['*.mp4', 2_592_000],
      ['*.m3u8', 10],
    ],
    4_000,
    2_500_000,
    'disabled',
  ],
] as const;

export function seedCdn(ctx: DemoContext): Row[] {
  const rng = ctx.random('cdn');
  const rows: Row[] = [];
  const usage: { at: number; row: Record<string, unknown> }[] = [];
  const firstHour = Math.floor((ctx.now - 7 * DAY) / HOUR) * HOUR;
  const lastHour = Math.floor(ctx.now / HOUR) * HOUR - HOUR;
  DOMAINS.forEach(([domain, origin, rules, peak, avgBytes, status], i) => {
    const at = ctx.now - rng.int(60, 300) * DAY;
    const disabledAt = status === 'disabled' ? ctx.now - 2 * DAY - 5 * HOUR : null;
    const row = ctx.add('cdnDomains', {
      domain,
      origin,
      cname: cnameOf(domain, 'cdn.wanxiang-demo.net'),
      httpsCertId: null as number | null,
      status,
      cacheRules: rules.map(([path, ttlS]) => ({ path, ttlS })),
      createdAt: at,
      updatedAt: disabledAt ?? at + i * HOUR,
    });
    rows.push(row);
    for (let hour = firstHour; hour <= lastHour; hour += HOUR) {
      if (disabledAt !== null && hour >= disabledAt) break;
      const local = new Date(hour + CHINA_OFFSET_MS);
      const h = local.getUTCHours();
      const weekend = local.getUTCDay() === 0 || local.getUTCDay() === 6;
      // Quiet at night, peaks at lunch and in the evening.
      const curve = 0.08 + 0.55 * Math.exp(-((h - 12.5) ** 2) / 6) + 0.9 * Math.exp(-((h - 20.5) ** 2) / 8);
      const requests = Math.max(0, Math.round(peak * curve * (weekend ? 1.25 : 1) * rng.float(0.85, 1.15)));
      const bytes = Math.round(requests * avgBytes * rng.float(0.8, 1.2));
      const ratio = Math.min(0.999, rng.around(domain.startsWith('download') ? 0.8 : 0.95, 0.03, 0.5, 0.999));
      // Counts as an import writes them (every request with a cache verdict; status classes in
      // fixed shares), so the hourly figures recompute the same ratio (core's hitRatioOf).
      const hits = Math.round(requests * ratio);
      const s3 = Math.round(requests * 0.04);
      const s4 = Math.round(requests * 0.025);
      const s5 = Math.round(requests * 0.003);
      usage.push({
        at: hour,
        row: {
          domainId: row.id,
          hour,
          requests,
          bytes,
          hits,
          misses: requests - hits,
          hitRatio: requests > 0 ? hits / requests : null,
          status2xx: requests - s3 - s4 - s5,
          status3xx: s3,
          status4xx: s4,
          status5xx: s5,
        },
      });
    }
  });
  usage.sort((a, b) => a.at - b.at);
  // Imported a few minutes after each hour closed.
  for (const { at, row } of usage) {
    const imported = Math.min(ctx.now, at + HOUR + 5 * 60_000);
    ctx.add('cdnUsage', { ...row, createdAt: imported, updatedAt: imported });
  }
  return rows;
}
