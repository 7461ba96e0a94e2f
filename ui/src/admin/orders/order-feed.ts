/**
 * The order news of `/ws` topic `orders` (server: domain/orders; pushed after each commit): a new
 * order, a status move, a refund, a runner assigned. One socket per page, shared by the screens
 * that listen (the order board, the dispatch screen), opened while one listens and closed when
 * none does; it reconnects after a drop, with a growing pause. `live` says whether pushes are
 * coming: while they are not (a proxy without WebSocket, another server process — pushes reach
 * only the sockets of the process that published, ws/hub.ts), the screens poll instead.
 */
import { ORDER_BOARD_TOPIC, subscribeTopic, type WebSocketFactory } from '@wanxiang/core';

/** Core's topic of the board's news (the server publishes on it). */
export const ORDER_TOPIC = ORDER_BOARD_TOPIC;

export interface OrderNews {
  type: 'created' | 'status' | 'refund' | 'assigned';
  order: {
    id: number;
    orderNo: string;
    storeId?: number;
    status: string;
    /** status moves: the status before, and the move's name. */
    from?: string | null;
    move?: string;
    runnerId?: number;
  };
}

export interface OrderFeedOptions {
  url: string;
  /** The bearer token at the moment of (re)connecting. */
  token(): string | null;
  connect: WebSocketFactory;
  /** Pause before the n-th reconnection (from 1). */
  retryMs?(attempt: number): number;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
}

const RETRY_MS = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));

function isNews(data: unknown): data is OrderNews {
  if (typeof data !== 'object' || data === null) return false;
  const { type, order } = data as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    typeof order === 'object' &&
    order !== null &&
    typeof (order as Record<string, unknown>).id === 'number'
  );
}

export class OrderFeed {
  private readonly listeners = new Set<(news: OrderNews) => void>();
  private readonly watchers = new Set<() => void>();
  private end: (() => void) | null = null;
  private retry: unknown = null;
  private attempt = 0;
  private isLive = false;

  constructor(private readonly options: OrderFeedOptions) {}

  /** Whether the subscription is accepted and pushes are coming. */
  get live(): boolean {
    return this.isLive;
  }

  /** Called whenever `live` changes (for useSyncExternalStore). */
  watch = (fn: () => void): (() => void) => {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  };

  listen(listener: (news: OrderNews) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.open();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  private setLive(live: boolean): void {
    if (live === this.isLive) return;
    this.isLive = live;
    for (const fn of [...this.watchers]) fn();
  }

  private open(): void {
    const { setTimer = (fn, ms) => setTimeout(fn, ms) } = this.options;
    this.end = subscribeTopic({
      url: this.options.url,
      topic: ORDER_TOPIC,
      token: this.options.token(),
      connect: this.options.connect,
      onOpen: () => {
        this.attempt = 0;
        this.setLive(true);
      },
      onData: (data) => {
        if (!isNews(data)) return;
        for (const listener of [...this.listeners]) listener(data);
      },
      onClose: () => {
        this.end = null;
        this.setLive(false);
        if (this.listeners.size === 0) return;
        this.attempt += 1;
        const wait = (this.options.retryMs ?? RETRY_MS)(this.attempt);
        this.retry = setTimer(() => {
          this.retry = null;
          if (this.listeners.size > 0 && !this.end) this.open();
        }, wait);
      },
    });
  }

  private close(): void {
    const { clearTimer = (t) => clearTimeout(t as ReturnType<typeof setTimeout>) } = this.options;
    if (this.retry !== null) clearTimer(this.retry);
    this.retry = null;
    this.end?.();
    this.end = null;
    this.attempt = 0;
    this.setLive(false);
  }
}
