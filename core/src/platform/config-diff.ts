/**
 * A saved platform-configuration version (configVersions.snapshot) compared with the current
 * configuration, field by field, as people read it (sys-config/old): labels from the
 * platformConfig definition, values through fieldText, nested values (JSON objects and lists of
 * objects) flattened to one line per leaf (`label › key › 0`), so a change deep inside shows
 * where it is rather than as two blobs of JSON.
 *
 * Direction: from the version to the current configuration (what changed since it was saved) —
 * `added` is only in the current configuration, `removed` only in the version, `changed` differs.
 * A value that is null, missing or '' counts as absent. Keys no definition names (a field since
 * removed from the registry) are compared too, under their own name, after the defined ones.
 */
import { EMPTY_TEXT, fieldText } from '../format/field-text';
import type { ResourceDef } from '../resources/define';
import type { FieldDef } from '../resources/fields';

export type ConfigDiffKind = 'changed' | 'added' | 'removed' | 'same';

export interface ConfigDiffEntry {
  /** Field name, with nested keys after dots: `productName`, `extra.theme.color`, `list.0.name`. */
  path: string;
  /** The field's Chinese label, nested keys after ` › `. */
  label: string;
  kind: ConfigDiffKind;
  /** The value in the saved version, as read on a screen (`-` when absent). */
  version: string;
  /** The value now. */
  current: string;
}

const SEP = ' › ';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbsent = (v: unknown) => v === null || v === undefined || v === '';
/** A list that reads well on one line (numbers, texts, booleans). */
const isFlatList = (v: unknown): v is unknown[] =>
  Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');
/** Values that are opened up into leaves rather than compared as one. */
const isNested = (v: unknown) => isPlainObject(v) || (Array.isArray(v) && !isFlatList(v));

/** Stable text of a leaf value with no definition (nested keys, unknown fields). */
function plainText(value: unknown): string {
  if (isAbsent(value)) return EMPTY_TEXT;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (Array.isArray(value)) return value.length ? value.map((v) => plainText(v)).join('、') : EMPTY_TEXT;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Equality of JSON values, key order ignored. */
function sameValue(a: unknown, b: unknown): boolean {
  if (isAbsent(a) && isAbsent(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return a === b;
}

function kindOf(version: unknown, current: unknown): ConfigDiffKind {
  if (sameValue(version, current)) return 'same';
  if (isAbsent(version)) return 'added';
  if (isAbsent(current)) return 'removed';
  return 'changed';
}

function childKeys(a: unknown, b: unknown): string[] {
  const keys = (v: unknown) =>
    isPlainObject(v) ? Object.keys(v) : Array.isArray(v) ? v.map((_, i) => String(i)) : [];
  const all = [...keys(a), ...keys(b)];
  const unique = [...new Set(all)];
  // Lists keep their order; object keys are sorted so the page does not depend on save order.
  return Array.isArray(a) || Array.isArray(b) ? unique.sort((x, y) => Number(x) - Number(y)) : unique.sort();
}

const childOf = (v: unknown, key: string): unknown =>
  isPlainObject(v) ? v[key] : Array.isArray(v) ? v[Number(key)] : undefined;

function compare(
  out: ConfigDiffEntry[],
  path: string,
  label: string,
  version: unknown,
  current: unknown,
  field: FieldDef | undefined,
): void {
  if (isNested(version) || isNested(current)) {
    // One side nested and the other a plain value: compare leaf by leaf, the plain side as absent
    // below it and reported once itself when it is not absent.
    const plainSide = !isNested(version) ? version : !isNested(current) ? current : undefined;
    if (!isAbsent(plainSide))
      out.push({
        path,
        label,
        kind: plainSide === version ? 'removed' : 'added',
        version: plainSide === version ? plainText(version) : EMPTY_TEXT,
        current: plainSide === current ? plainText(current) : EMPTY_TEXT,
      });
    const v = isNested(version) ? version : undefined;
    const c = isNested(current) ? current : undefined;
    for (const key of childKeys(v, c))
      compare(out, `${path}.${key}`, `${label}${SEP}${key}`, childOf(v, key), childOf(c, key), undefined);
    return;
  }
  const text = (value: unknown) => (field && !isAbsent(value) ? fieldText(field, value) : plainText(value));
  out.push({ path, label, kind: kindOf(version, current), version: text(version), current: text(current) });
}

/**
 * Every field of `def` (then any other key of either side) with its value in the saved `version`
 * and in `current`; `id`, `createdAt` and `updatedAt` are not configuration and are skipped.
 */
export function diffConfig(
  def: ResourceDef,
  version: Readonly<Record<string, unknown>> | null | undefined,
  current: Readonly<Record<string, unknown>> | null | undefined,
): ConfigDiffEntry[] {
  const v = version ?? {};
  const c = current ?? {};
  const out: ConfigDiffEntry[] = [];
  const defined = Object.entries(def.fields).filter(([, field]) => !field.writeOnly);
  for (const [name, field] of defined) compare(out, name, field.label, v[name], c[name], field);
  const skip = new Set(['id', 'createdAt', 'updatedAt', ...Object.keys(def.fields)]);
  const others = [...new Set([...Object.keys(v), ...Object.keys(c)])].filter((k) => !skip.has(k)).sort();
  for (const name of others) compare(out, name, name, v[name], c[name], undefined);
  return out;
}

/** How many entries differ (for a summary line: 3 项不同). */
export function countConfigChanges(entries: readonly ConfigDiffEntry[]): number {
  return entries.filter((e) => e.kind !== 'same').length;
}
