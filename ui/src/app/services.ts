/**
 * Everything the screens share, created once per page: the browser ports, core's HTTP client and
 * auth API, the site config and the ONE session actor (core's sessionMachine with real actors).
 */
import {
  type AuthApi,
  createAuthApi,
  createHttpClient,
  type HttpClient,
  sessionMachine,
  type TokenStore,
} from '@wanxiang/core';
import { type Actor, createActor, fromPromise } from 'xstate';
import { NoticeHub } from '../platform/notices';
import { browserTokenStore } from '../platform/token-store';
import { createSiteConfigStore, type SiteConfigStore } from './public-config';

export type SessionActor = Actor<typeof sessionMachine>;

export interface Services {
  tokenStore: TokenStore;
  notices: NoticeHub;
  http: HttpClient;
  auth: AuthApi;
  session: SessionActor;
  site: SiteConfigStore;
  /** localStorage: the token and the remembered public path. */
  storage: Storage;
}

export interface ServicesOptions {
  storage: Storage;
  /** sessionStorage: notices carried over a reload. */
  flashStorage: Storage;
  reloadPage: () => void;
  document: Document;
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
}

export function createServices(options: ServicesOptions): Services {
  const notices = new NoticeHub();
  const tokenStore = browserTokenStore(options.storage);
  let session: SessionActor | null = null;
  let reloading = false;

  const http = createHttpClient({
    baseURL: options.baseURL ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
    tokenStore,
    notifier: notices,
    reload() {
      // Several calls may fail at once; one reload is enough.
      if (reloading) return;
      reloading = true;
      notices.stash(options.flashStorage);
      options.reloadPage();
    },
    // Spec §8 "logout handling" after a 401: the session goes to signed out.
    onLogout: () => session?.send({ type: 'EXPIRED' }),
  });
  const auth = createAuthApi(http);

  session = createActor(
    sessionMachine.provide({
      actors: {
        loadCurrentUser: fromPromise(() => auth.currentUser()),
        signOut: fromPromise(() => auth.signOut()),
      },
    }),
    { input: { tokenStore } },
  );
  session.on('notify', ({ level, message }) => notices.notify(level, message));

  const site = createSiteConfigStore(auth, options.document);
  return { tokenStore, notices, http, auth, session, site, storage: options.storage };
}

/** Boot order: carried-over notices first, then the session, then the site config. */
export function startServices(services: Services, flashStorage: Storage): void {
  services.notices.restore(flashStorage);
  services.session.start();
  void services.site.load();
}
