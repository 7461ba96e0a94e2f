/**
 * The network side of qrLoginMachine for any host with an HTTP client and, maybe, a WebSocket:
 * the scan-login API for tickets and polling, and `/ws` pushes when a socket can be opened (a
 * host without one gets PUSH_CLOSED at once and the machine polls). The browser and the CLI
 * differ only in where the socket constructor comes from.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { HttpClient } from '../http/client';
import {
  createQrLoginApi,
  loginTopic,
  type QrStatus,
  subscribeTopic,
  type WebSocketLike,
  websocketUrl,
} from '../http/qr-login-api';
import type { QrLoginEvent } from './qr-login-machine';

export interface QrLoginHost {
  http: HttpClient;
  /** The server's origin (or API URL); `/ws` is found from it. */
  origin: string;
  /** The host's WebSocket constructor; absent: no pushes, polling only. */
  WebSocket?: new (
    url: string,
  ) => unknown;
}

export function qrLoginActors(host: QrLoginHost) {
  const api = createQrLoginApi(host.http);
  const Socket = host.WebSocket;
  return {
    requestTicket: fromPromise(() => api.create()),
    fetchStatus: fromPromise<QrStatus, { ticket: string }>(({ input }) => api.status(input.ticket)),
    watchStatus: fromCallback<QrLoginEvent, { ticket: string }>(({ sendBack, input }) => {
      if (!Socket) {
        sendBack({ type: 'PUSH_CLOSED' });
        return;
      }
      return subscribeTopic({
        url: websocketUrl(null, host.origin),
        topic: loginTopic(input.ticket),
        // The DOM's and Node's handler types are narrower than the port's; the calls are the same.
        connect: (url) => new Socket(url) as WebSocketLike,
        onData: (data) => sendBack({ type: 'STATUS', ...(data as QrStatus) }),
        onOpen: () => sendBack({ type: 'PUSH_OPEN' }),
        onClose: () => sendBack({ type: 'PUSH_CLOSED' }),
      });
    }),
  };
}
