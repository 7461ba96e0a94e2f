/**
 * The browser's Notifier port. Core's HTTP client and machines notify from outside React, while
 * antd's notification API lives inside `<App>` (App.useApp()); the hub queues what arrives before
 * the bridge component attaches and hands everything on after.
 *
 * A reload (spec §8: 401, errorCode 1) would wipe what is on screen — 登录超时 must survive it — so
 * notices still on screen are stashed in sessionStorage before the reload and shown again on boot.
 */
import { NOTIFICATION_DURATION_S, type NoticeLevel, type Notifier } from '@wanxiang/core';

export interface Notice {
  level: NoticeLevel;
  message: string;
}

type Sink = (notice: Notice) => void;

const STASH_KEY = 'pendingNotices';
const LEVELS: readonly NoticeLevel[] = ['success', 'error', 'warning', 'info'];

export class NoticeHub implements Notifier {
  private sink: Sink | null = null;
  private queue: Notice[] = [];
  /** What was shown recently, with when: a notice stays on screen NOTIFICATION_DURATION_S. */
  private recent: { notice: Notice; at: number }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  notify(level: NoticeLevel, message: string): void {
    const notice = { level, message };
    this.recent.push({ notice, at: this.now() });
    if (this.sink) this.sink(notice);
    else this.queue.push(notice);
  }

  /** Attaches the on-screen sink (the bridge inside antd's App); returns the detach function. */
  attach(sink: Sink): () => void {
    this.sink = sink;
    const queued = this.queue;
    this.queue = [];
    for (const notice of queued) sink(notice);
    return () => {
      if (this.sink === sink) this.sink = null;
    };
  }

  /** Notices still on screen: what a reload must carry over. */
  onScreen(): Notice[] {
    const since = this.now() - NOTIFICATION_DURATION_S * 1000;
    return this.recent.filter((r) => r.at >= since).map((r) => r.notice);
  }

  /** Before a reload: keep the notices on screen for the next page. */
  stash(storage: Storage): void {
    const notices = this.onScreen();
    if (notices.length > 0) storage.setItem(STASH_KEY, JSON.stringify(notices));
  }

  /** On boot: show what the previous page stashed, once. */
  restore(storage: Storage): void {
    const raw = storage.getItem(STASH_KEY);
    if (raw === null) return;
    storage.removeItem(STASH_KEY);
    for (const notice of parseNotices(raw)) this.notify(notice.level, notice.message);
  }
}

function parseNotices(raw: string): Notice[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (n): n is Notice =>
        typeof n === 'object' &&
        n !== null &&
        LEVELS.includes((n as Notice).level) &&
        typeof (n as Notice).message === 'string',
    );
  } catch {
    return [];
  }
}
