/**
 * core's qrLoginMachine with the browser's ports: the scan-login API over the one HTTP client,
 * and `/ws` (same origin) for pushes when the browser can open a WebSocket.
 */
import { type HttpClient, qrLoginActors, qrLoginMachine } from '@wanxiang/core';

export function browserQrLoginMachine(http: HttpClient, origin: string) {
  const WebSocket = typeof globalThis.WebSocket === 'undefined' ? undefined : globalThis.WebSocket;
  return qrLoginMachine.provide({ actors: qrLoginActors({ http, origin, WebSocket }) });
}
