/**
 * One `/ws` topic kept open while someone listens: subscribe with the token at the moment of
 * (re)connecting, pass each push on, reconnect after a drop with a growing pause, close when the
 * last listener leaves. `live` says whether pushes are coming; while they are not (a proxy without
 * WebSocket, a dropped connection), the screens poll instead. Shared by the order board's news
 * (admin/orders/order-feed.ts) and the monitoring screens (monitor/topic-feed.ts); platform code,
 * so the public screens may use it without pulling in admin code.
 */
import { subscribeTopic, type WebSocketFactory } from '@wanxiang/core';

export interface TopicFeedOptions<T> {
  url: string;
  topic: string;
  /** The bearer token at the moment of (re)connecting. */
  token(): string | null;
  connect: WebSocketFactory;
  /** Which pushes are news for the listeners (the rest are dropped); every push by default. */
  accept?(data: unknown): data is T;
  /** Pause before the n-th reconnection (from 1). */
  retryMs?(attempt: number): number;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
}

/** 1 s, 2 s, 4 s … up to 30 s. */
const RETRY_MS = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));

export class TopicFeed<T = unknown> {
  private readonly listeners = new Set<(data: T) => void>();
  private readonly watchers = new Set<() => void>();
  private end: (() => void) | null = null;
  private retry: unknown = null;
  private attempt = 0;
  private isLive = false;

  constructor(private readonly options: TopicFeedOptions<T>) {}

  /** Whether the subscription is accepted and pushes are coming. */
  get live(): boolean {
    return this.isLive;
  }

  /** Called whenever `live` changes (for useSyncExternalStore). */
  watch = (fn: () => void): (() => void) => {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  };

  listen(listener: (data: T) => void): () => void {
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
    const { setTimer = (fn, ms) => setTimeout(fn, ms), accept } = this.options;
    this.end = subscribeTopic({
      url: this.options.url,
      topic: this.options.topic,
      token: this.options.token(),
      connect: this.options.connect,
      onOpen: () => {
        this.attempt = 0;
        this.setLive(true);
      },
      onData: (data) => {
        if (accept && !accept(data)) return;
        for (const listener of [...this.listeners]) listener(data as T);
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
