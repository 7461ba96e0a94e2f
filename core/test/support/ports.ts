/**
 * Ports that record every side effect, in order, as readable lines — so a test can say
 * "removeToken, then logout, then the warning, then reload" and nothing else.
 */
import { type HttpPorts, memoryTokenStore } from '../../src/index';

export interface RecordingPorts {
  ports: HttpPorts;
  /** Every effect in the order it happened: `removeToken`, `logout`, `reload`, `<level>: <message>`. */
  log: string[];
  token(): string | null;
}

export function recordingPorts(initialToken: string | null = 'token-1'): RecordingPorts {
  const store = memoryTokenStore(initialToken);
  const log: string[] = [];
  const ports: HttpPorts = {
    tokenStore: {
      get: () => store.get(),
      set: (token) => {
        log.push(`setToken ${token}`);
        store.set(token);
      },
      remove: () => {
        log.push('removeToken');
        store.remove();
      },
    },
    notifier: { notify: (level, message) => log.push(`${level}: ${message}`) },
    reload: () => log.push('reload'),
    onLogout: () => log.push('logout'),
  };
  return { ports, log, token: () => store.get() };
}

/** Awaits a promise that must reject and hands back its reason. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
