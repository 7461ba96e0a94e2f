/**
 * GET /api/public/config, loaded once at boot: the product name for the headers and the page title
 * (which defaults to the product name, spec §1).
 */
import { type AuthApi, DEFAULT_PRODUCT_NAME, type PublicConfig } from '@wanxiang/core';

export interface SiteConfig {
  productName: string;
  pageTitle: string;
  copyright: string;
  /** Where `/ws` is (the order board's pushes); '' for the page's own host. */
  wsHost: string;
}

export interface SiteConfigStore {
  get(): SiteConfig;
  subscribe(listener: () => void): () => void;
  load(): Promise<void>;
}

const DEFAULTS: SiteConfig = {
  productName: DEFAULT_PRODUCT_NAME,
  pageTitle: DEFAULT_PRODUCT_NAME,
  copyright: '',
  wsHost: '',
};

export function siteConfigFrom(config: Partial<PublicConfig>): SiteConfig {
  const productName = config.productName?.trim() || DEFAULT_PRODUCT_NAME;
  return {
    productName,
    pageTitle: config.pageTitle?.trim() || productName,
    copyright: config.copyright?.trim() ?? '',
    wsHost: config.wsHost?.trim() ?? '',
  };
}

export function createSiteConfigStore(auth: AuthApi, doc: Document): SiteConfigStore {
  let value = DEFAULTS;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async load() {
      try {
        value = siteConfigFrom(await auth.publicConfig());
      } catch {
        // The catalogue has already told the user; the defaults keep the site usable.
        return;
      }
      doc.title = value.pageTitle;
      for (const listener of listeners) listener();
    },
  };
}
