/**
 * What one run of the CLI shares between its command and the final error report: the
 * terminal, core's ports as the CLI implements them, and the server the command talks to.
 */
import { homedir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import {
  type AuthApi,
  createAuthApi,
  createHttpClient,
  type HttpClient,
  type TokenStore,
} from '@wanxiang/core';
import { resolveApiUrl } from './config/api-url';
import { resolveConfigDir } from './config/config-dir';
import { CredentialsFile, fileTokenStore } from './config/credentials';
import { createTerminalNotifier, type TerminalNotifier } from './io/notifier';

export interface Io {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
}

export interface Server {
  apiUrl: string;
  /** The saved token of this server (the credentials file). */
  tokenStore: TokenStore;
  http: HttpClient;
  auth: AuthApi;
}

export class Runtime {
  readonly notifier: TerminalNotifier;
  readonly credentials: CredentialsFile;
  /** Set once a command resolved its server, so a network failure can name it. */
  apiUrl: string | null = null;
  /**
   * core's catalogue asks the host to "reload" when the session is over (401, errorCode 1). A
   * page reloads; a command cannot, so it ends: the final report sees this and exits 4.
   */
  sessionEnded = false;

  constructor(readonly io: Io) {
    this.notifier = createTerminalNotifier(io.stderr);
    this.credentials = new CredentialsFile(
      resolveConfigDir({ env: io.env, platform: process.platform, homedir: homedir() }),
    );
  }

  /** The server named by --api-url / WANXIANG_API_URL, else the saved one, else the default. */
  server(apiUrlOption: string | undefined, tokenStore?: TokenStore): Server {
    const apiUrl = resolveApiUrl(apiUrlOption, this.credentials.read()?.apiUrl);
    this.apiUrl = apiUrl;
    const store = tokenStore ?? fileTokenStore(this.credentials, apiUrl);
    const http = createHttpClient({
      baseURL: apiUrl,
      tokenStore: store,
      notifier: this.notifier,
      reload: () => {
        this.sessionEnded = true;
      },
      // The catalogue removed the token just before; the CLI has no other signed-in state.
      onLogout: () => store.remove(),
    });
    return { apiUrl, tokenStore: store, http, auth: createAuthApi(http) };
  }
}
