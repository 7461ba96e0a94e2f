/**
 * Typed calls of API.md "Scan login", the constants both sides share, and a small client of the
 * `/ws` push channel. The socket implementation is a port (`WebSocketLike`): the browser's
 * WebSocket, Node's, or a fake in tests — core itself never opens a connection.
 */
import type { SuccessEnvelope } from '../contract/envelope';
import type { HttpClient } from './client';

/** A ticket lives this long (API.md: 2 minutes). */
export const QR_TICKET_TTL_MS = 2 * 60_000;
/** After the confirmation the waiting side has this long to collect its token. */
export const QR_CLAIM_WINDOW_MS = 60_000;
/** Poll interval while no push channel is open (the fallback). */
export const QR_POLL_INTERVAL_MS = 2_000;
/** Poll interval while the push channel is open: only a safety net for a lost message. */
export const QR_POLL_INTERVAL_PUSHED_MS = 15_000;
/** Expired tickets replaced without asking; after that the screen waits for 刷新. */
export const QR_AUTO_REFRESH_LIMIT = 5;
/** Tickets one address may request per minute (then 429). */
export const QR_TICKETS_PER_MINUTE = 30;
/** Where the QR code points: the confirm screen, opened on a phone or another browser. */
export const QR_CONFIRM_PATH = '/scan_login/confirm';

export type QrStatusName = 'pending' | 'scanned' | 'confirmed' | 'expired' | 'cancelled';

export interface QrTicket {
  ticket: string;
  /** Epoch ms (server clock) when the ticket expires. */
  expire: number;
  /** Milliseconds the ticket had left when answered: a countdown that ignores clock skew. */
  expiresIn?: number;
  /** Absolute URL of the confirm screen for this ticket: what the QR code encodes. */
  confirmUrl: string;
}

export interface QrStatus {
  status: QrStatusName;
  /** Only once, on the first read after the confirmation: the new session's bearer token. */
  token?: string;
  /** The token's expiry when `token` is set; the ticket's otherwise. */
  expire?: number;
  expiresIn?: number;
  /** With the token: the user's roles (as the password sign-in answers `authority`). */
  authority?: string[];
  /** With the token: who signed in. */
  username?: string;
}

/** What the confirm screen shows about the side that asks to be signed in. */
export interface QrScanInfo {
  status: QrStatusName;
  expire: number;
  client: { ip: string | null; userAgent: string | null; requestedAt: number };
}

export interface QrLoginApi {
  create(): Promise<QrTicket>;
  status(ticket: string): Promise<QrStatus>;
  scan(ticket: string): Promise<QrScanInfo>;
  confirm(ticket: string): Promise<QrStatus>;
  cancel(ticket: string): Promise<QrStatus>;
}

export function createQrLoginApi(http: HttpClient): QrLoginApi {
  const path = (ticket: string, action = '') =>
    `/api/login/qr/${encodeURIComponent(ticket)}${action ? `/${action}` : ''}`;
  const data = async <T>(call: Promise<SuccessEnvelope<T>>) => (await call).data;
  return {
    // The screens show their own states; the catalogue's toasts would only repeat them.
    create: () => data(http.request('/api/login/qr', { method: 'POST', kind: 'silent' })),
    status: (ticket) => data(http.request(path(ticket), { kind: 'silent' })),
    scan: (ticket) => data(http.request(path(ticket, 'scan'), { method: 'POST', kind: 'silent' })),
    confirm: (ticket) => data(http.request(path(ticket, 'confirm'), { method: 'POST', kind: 'silent' })),
    cancel: (ticket) => data(http.request(path(ticket, 'cancel'), { method: 'POST', kind: 'silent' })),
  };
}

/** The login topic of a ticket on `/ws`. */
export const loginTopic = (ticket: string) => `login:${ticket}`;

/** The part of a WebSocket this client uses (browser WebSocket, Node 22's, or the `ws` package). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export interface TopicSubscription {
  url: string;
  topic: string;
  /** For topics that need a signed-in user (API.md: the token travels in the first message). */
  token?: string | null;
  connect: WebSocketFactory;
  onData(data: unknown): void;
  /** The server accepted the subscription: pushes will come. */
  onOpen?(): void;
  /** The channel closed or failed (or the server refused): the caller falls back to polling. */
  onClose?(): void;
}

/**
 * Subscribes to one topic of `/ws`: `{type:'subscribe', topic, token?}` as the first message,
 * then every `{topic, data}` of that topic goes to `onData`. Returns the unsubscribe function.
 */
export function subscribeTopic(options: TopicSubscription): () => void {
  let closed = false;
  let socket: WebSocketLike;
  try {
    socket = options.connect(options.url);
  } catch {
    options.onClose?.();
    return () => undefined;
  }
  const end = () => {
    if (closed) return;
    closed = true;
    options.onClose?.();
  };
  socket.onopen = () => {
    const message: Record<string, string> = { type: 'subscribe', topic: options.topic };
    if (options.token) message.token = options.token;
    socket.send(JSON.stringify(message));
  };
  socket.onmessage = (event) => {
    let message: { type?: string; topic?: string; data?: unknown };
    try {
      message = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (message.type === 'subscribed' && message.topic === options.topic) options.onOpen?.();
    else if (message.type === 'error') socket.close();
    else if (message.topic === options.topic) options.onData(message.data);
  };
  socket.onclose = end;
  socket.onerror = end;
  return () => {
    // Our own ending is not a failure to report.
    closed = true;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    // CONNECTING (0) or OPEN (1)
    if (socket.readyState <= 1) socket.close(1000);
  };
}

/** `ws(s)://host/ws` from the configured wsHost, else from the page's (or API's) origin. */
export function websocketUrl(wsHost: string | null | undefined, origin: string): string {
  const base = wsHost?.trim() ? wsHost.trim() : origin;
  const url = new URL(base.includes('://') ? base : `http://${base}`);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/ws';
  return url.toString();
}
