/**
 * Listening to the order news from a screen: the page's one OrderFeed (order-feed.ts) over the
 * configured WebSocket host, the listener kept current without resubscribing, and whether pushes
 * are live. A screen hidden in the tab bar stops listening (React unmounts a hidden Activity's
 * effects) and catches up when shown again.
 */
import { type WebSocketLike, websocketUrl } from '@wanxiang/core';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useServices, useSiteConfig } from '../../session/services-context';
import { OrderFeed, type OrderNews } from './order-feed';

const feeds = new Map<string, OrderFeed>();

function feedOf(url: string, token: () => string | null): OrderFeed | null {
  if (typeof globalThis.WebSocket === 'undefined') return null;
  let feed = feeds.get(url);
  if (!feed) {
    feed = new OrderFeed({ url, token, connect: (u) => new WebSocket(u) as unknown as WebSocketLike });
    feeds.set(url, feed);
  }
  return feed;
}

const never = () => () => undefined;

/** Calls `onNews` for every order news while the screen is shown; answers whether pushes are live. */
export function useOrderNews(onNews: (news: OrderNews) => void): boolean {
  const { tokenStore } = useServices();
  const { wsHost } = useSiteConfig();
  const url = websocketUrl(wsHost, window.location.origin);
  const feed = feedOf(url, () => tokenStore.get());
  const latest = useRef(onNews);
  latest.current = onNews;
  useEffect(() => feed?.listen((news) => latest.current(news)), [feed]);
  return useSyncExternalStore(feed?.watch ?? never, () => feed?.live ?? false);
}
