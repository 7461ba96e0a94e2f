/** The platform's order settings (platformConfig), with the definition's defaults for unset keys. */
import { getResource } from '@wanxiang/core';
import type { AnyDb } from '../../resources/extensions.js';
import { type ConfigValue, readPlatformConfig } from '../platform-config/store.js';

export interface OrderSettings {
  unpaidCancelMinutes: number;
  deliveryCompleteMinutes: number;
  pointsMaxSharePercent: number;
}

const KEYS = ['unpaidCancelMinutes', 'deliveryCompleteMinutes', 'pointsMaxSharePercent'] as const;

export async function orderSettings(db: AnyDb): Promise<OrderSettings> {
  return orderSettingsFrom(await readPlatformConfig(db));
}

export function orderSettingsFrom(values: ReadonlyMap<string, ConfigValue>): OrderSettings {
  const fields = getResource('platformConfig').fields;
  const out = {} as OrderSettings;
  for (const key of KEYS) {
    const v = values.get(key);
    out[key] = typeof v === 'number' && Number.isInteger(v) ? v : Number(fields[key]?.default);
  }
  return out;
}
