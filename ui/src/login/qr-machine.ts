/**
 * core's qrLoginMachine with the browser's ports: the scan-login API over the one HTTP client,
 * and `/ws` (same origin) for pushes when the browser can open a WebSocket.
 */
import {
  createQrLoginApi,
  type HttpClient,
  loginTopic,
  type QrLoginEvent,
  type QrStatus,
  qrLoginMachine,
  subscribeTopic,
  type WebSocketLike,
  websocketUrl,
} from '@wanxiang/core';
import { fromCallback, fromPromise } from 'xstate';

export function browserQrLoginMachine(http: HttpClient, origin: string) {
  const api = createQrLoginApi(http);
  return qrLoginMachine.provide({
    actors: {
      requestTicket: fromPromise(() => api.create()),
      fetchStatus: fromPromise<QrStatus, { ticket: string }>(({ input }) => api.status(input.ticket)),
      watchStatus: fromCallback<QrLoginEvent, { ticket: string }>(({ sendBack, input }) => {
        if (typeof WebSocket === 'undefined') {
          sendBack({ type: 'PUSH_CLOSED' });
          return;
        }
        return subscribeTopic({
          url: websocketUrl(null, origin),
          topic: loginTopic(input.ticket),
          // The DOM's handler types are narrower than core's port; the calls are the same.
          connect: (url) => new WebSocket(url) as unknown as WebSocketLike,
          onData: (data) => sendBack({ type: 'STATUS', ...(data as QrStatus) }),
          onOpen: () => sendBack({ type: 'PUSH_OPEN' }),
          onClose: () => sendBack({ type: 'PUSH_CLOSED' }),
        });
      }),
    },
  });
}
