/**
 * Platform configuration: key → JSON value rows, with defaults for keys never set. The admin
 * screen (sys-config/platform) writes through `setPlatformConfig` in a later issue.
 */
import { COPYRIGHT_YEAR, DEFAULT_PRODUCT_NAME, type PublicConfig } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type ConfigValue = string | number | boolean | null | ConfigValue[] | { [key: string]: ConfigValue };

export async function readPlatformConfig(db: Kysely<Database>): Promise<Map<string, ConfigValue>> {
  return platformConfigFrom(await platformConfigQuery(db).execute());
}

/** The read of `readPlatformConfig`, to be sent with others (db/together.ts). */
export function platformConfigQuery(db: Kysely<Database>) {
  return db.selectFrom('platform_config').select(['key', 'value']);
}

export function platformConfigFrom(
  rows: readonly { key: string; value: string }[],
): Map<string, ConfigValue> {
  const values = new Map<string, ConfigValue>();
  for (const row of rows) {
    try {
      values.set(row.key, JSON.parse(row.value) as ConfigValue);
    } catch {
      // A hand-edited row that is not JSON is ignored rather than breaking every page.
    }
  }
  return values;
}

export async function setPlatformConfig(
  db: Kysely<Database>,
  key: string,
  value: ConfigValue,
  now: number,
): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('platform_config')
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

function text(values: Map<string, ConfigValue>, key: string): string | null {
  const v = values.get(key);
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** What GET /api/public/config answers: configured values over the defaults. */
export async function publicConfig(db: Kysely<Database>, version: string): Promise<PublicConfig> {
  const values = await readPlatformConfig(db);
  const productName = text(values, 'productName') ?? DEFAULT_PRODUCT_NAME;
  return {
    productName,
    // Spec §1: the page title defaults to the product name.
    pageTitle: text(values, 'pageTitle') ?? productName,
    copyright: text(values, 'copyright') ?? `© ${COPYRIGHT_YEAR} ${productName}`,
    version,
    // Empty means "the same origin as the page".
    wsHost: text(values, 'wsHost') ?? '',
    apiHost: text(values, 'apiHost') ?? '',
    allowRegistration: values.get('allowRegistration') === true,
  };
}
