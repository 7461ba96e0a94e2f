/**
 * The monitoring screens' `/ws` topics (the platform's TopicFeed, shared with the order board):
 * one feed per topic per page, kept open while a screen listens. `live` says whether pushes are
 * coming; while they are not, the screens poll.
 */
import { type WebSocketLike, websocketUrl } from '@wanxiang/core';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { TopicFeed } from '../platform/topic-feed';
import { useServices, useSiteConfig } from '../session/services-context';

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
