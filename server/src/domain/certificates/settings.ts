/**
 * The certificate area's settings, per database (the server's, set by its plugin), so that the
 * engine's action handlers — which get the database, not the app — find them, as printing does.
 */
import type { AnyDb } from '../../resources/extensions.js';

export interface CertificateSettings {
  /** Each step of a check: resolve, connect, STARTTLS, handshake. */
  timeoutMs: number;
}

export const DEFAULT_SETTINGS: CertificateSettings = { timeoutMs: 10_000 };

const byDb = new WeakMap<object, CertificateSettings>();

export function setSettings(db: AnyDb, settings: CertificateSettings): void {
  byDb.set(db, settings);
}

export function settingsOf(db: AnyDb): CertificateSettings {
  return byDb.get(db) ?? DEFAULT_SETTINGS;
}
