/**
 * Stored values for the tests that compare a fast path with its plain definition
 * (formats.test.ts, sqlite-json.test.ts): drawn from a seeded generator, so every run sees the
 * same values, with the awkward cases mixed in — negative, fractional and far-off times, text a
 * spreadsheet would run, JSON with spaces, escapes and repeated keys, text where a number belongs.
 */
import { type FieldDef, JSON_TYPES } from '@wanxiang/core';
import { Rng } from '@wanxiang/demo';

/** The demo's seeded generator: the same values on every run. */
export const g = new Rng(20240601, 'stored-values');
export const DAY = 86_400_000;
export const YEAR_10000 = 253_402_300_800_000;

export function someMs(): number {
  return g.pick([
    () => g.int(0, 4_102_444_800_000), // 1970–2100
    () => g.int(-62_135_596_800_000, 0), // years 1–1969
    () => g.int(YEAR_10000 - 30 * DAY, YEAR_10000 + 30 * DAY), // around year 10 000
    () => g.int(-30 * DAY, 30 * DAY),
    () => g.int(0, 4_102_444_800_000) + g.pick([0.25, 0.5, 0.999, -0.5]),
    () => g.pick([0, -0, -1, 1, DAY - 1, DAY, -DAY, 8 * 3_600_000 - 1, -8 * 3_600_000, YEAR_10000 - 1]),
  ])();
}

export function someJsonValue(depth = 0): unknown {
  const kinds = depth > 3 ? 4 : 7;
  switch (g.int(0, kinds - 1)) {
    case 0:
      return g.int(-1e6, 1e6);
    case 1:
      return g.pick(['宫保鸡丁', 'a b', '', 'x"y', 'back\\slash', 'tab\there', '😀', 'é', '\u2028', '1']);
    case 2:
      return g.pick([true, false, null]);
    case 3:
      return g.pick([0.5, -0, 1e21, 12.25, 2 ** 60]);
    case 4:
      return Array.from({ length: g.int(0, 3) }, () => someJsonValue(depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = g.int(0, 4); i > 0; i--)
        out[g.pick(['goodsId', 'name', 'qty', 'sku', '1', '__proto__', 'a b', '中'])] = someJsonValue(
          depth + 1,
        );
      return out;
    }
  }
}

export function someStored(field: FieldDef): unknown {
  if (g.next() < 0.15) return null;
  switch (field.type) {
    case 'integer':
    case 'money':
    case 'relation':
      return g.pick([() => g.int(-1e6, 1e7), () => g.int(0, 60), () => 12.5, () => 'abc'])();
    case 'number':
      return g.pick([0.1, -3.5, 120.153456, 1e21, 7]);
    case 'datetime':
      return g.pick([() => someMs(), () => 'not a time'])();
    case 'boolean':
      return g.pick([0, 1, '1', 2]);
    case 'enum':
      return g.next() < 0.85 ? g.pick(field.options).value : g.pick(['unknown', 'a,b', '=x']);
    default:
      if (JSON_TYPES.has(field.type)) {
        const value =
          field.type === 'relationList'
            ? Array.from({ length: g.int(0, 3) }, () => g.pick([g.int(1, 40), 'x']))
            : field.type === 'enumList' && 'options' in field
              ? Array.from({ length: g.int(0, 3) }, () => g.pick(field.options).value)
              : someJsonValue();
        return g.pick([JSON.stringify(value), JSON.stringify(value, null, 1), 'not json', 'null', '5']);
      }
      return g.pick([
        '朝阳门店',
        'a,b',
        'say "hi"',
        'two\nlines',
        '=SUM(A1)',
        '+86 138',
        '-',
        '@me',
        '',
        ' lead',
      ]);
  }
}
