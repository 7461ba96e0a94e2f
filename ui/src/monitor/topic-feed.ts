/**
 * One `/ws` topic kept open while someone listens (as the order board's feed does, admin/orders/
 * order-feed.ts — not imported: that is admin code): subscribe with the token, pass each push on,
 * reconnect after a drop with a growing pause. `live` says whether pushes are coming; while they
 * are not, the screens poll.
 */
import { subscribeTopic, type WebSocketFactory, type WebSocketLike, websocketUrl } from '@wanxiang/core';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useServices, useSiteConfig } from '../session/services-context';

const RETRY_MS = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));

export class TopicFeed {
  private readonly listeners = new Set<(data: unknown) => void>();
  private readonly watchers = new Set<() => void>();
  private end: (() => void) | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private isLive = false;

  constructor(
    private readonly options: {
      url: string;
      topic: string;
      token(): string | null;
      connect: WebSocketFactory;
    },
  ) {}

  get live(): boolean {
    return this.isLive;
  }

  watch = (fn: () => void): (() => void) => {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  };

  listen(listener: (data: unknown) => void): () => void {
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
        for (const listener of [...this.listeners]) listener(data);
      },
      onClose: () => {
        this.end = null;
        this.setLive(false);
        if (this.listeners.size === 0) return;
        this.attempt += 1;
        this.retry = setTimeout(() => {
          this.retry = null;
          if (this.listeners.size > 0 && !this.end) this.open();
        }, RETRY_MS(this.attempt));
      },
    });
  }

  private close(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.end?.();
    this.end = null;
    this.attempt = 0;
    this.setLive(false);
  }
}

const feeds = new Map<string, TopicFeed>();

function feedOf(url: string, topic: string, token: () => string | null): TopicFeed | null {
  if (typeof globalThis.WebSocket === 'undefined') return null;
  const key = `${url} ${topic}`;
  let feed = feeds.get(key);
  if (!feed) {
    feed = new TopicFeed({ url, topic, token, connect: (u) => new WebSocket(u) as unknown as WebSocketLike });
    feeds.set(key, feed);
  }
  return feed;
}

const never = () => () => undefined;

/**
 * Calls `onData` for every push of `topic` while the screen is shown (no topic: nothing); answers
 * whether pushes are live.
 */
export function useTopic(topic: string | null, onData: (data: unknown) => void): boolean {
  const { tokenStore } = useServices();
  const { wsHost } = useSiteConfig();
  const url = websocketUrl(wsHost, window.location.origin);
  const feed = topic ? feedOf(url, topic, () => tokenStore.get()) : null;
  const latest = useRef(onData);
  latest.current = onData;
  useEffect(() => feed?.listen((data) => latest.current(data)), [feed]);
  return useSyncExternalStore(feed?.watch ?? never, () => feed?.live ?? false);
}

/** The personal monitoring topic of a user (server: after each check of their jobs). */
export const userMonitorTopic = (userId: number) => `monitor:user:${userId}`;
/** Everyone's checks, for readers of monitorJobs (the admin screens). */
export const MONITOR_TOPIC = 'monitor';
