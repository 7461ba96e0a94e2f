/**
 * A small in-process topic pub/sub behind `/ws`. Areas publish with `app.hub.publish(topic,
 * data)` (scan-login status today; new orders and job alerts later); every socket subscribed to
 * the topic receives `{topic, data}`.
 *
 * Who may subscribe is decided per topic prefix: an area calls `app.hub.allow(prefix, check)`
 * once. `check` gets the signed-in user of the socket (null without a token) and the topic.
 * Topics no prefix allows are refused, so a new kind of message is private until its area says
 * otherwise. `user:<id>` is built in: the user themself. A topic of its own (`orders`, the order
 * board's) is allowed with `allowTopic`.
 *
 * Across processes: on PostgreSQL every publish also goes to the other server processes on the
 * database through LISTEN/NOTIFY (./pg-fanout.ts, attached with `connect`), so a socket on any
 * process hears what any process published. The publishing process delivers to its own sockets
 * here, at once, and skips its own notification. On SQLite the hub stays in this process: one
 * process per SQLite file is the embedded deployment. Pushes are prompt, not guaranteed (a
 * listener reconnecting misses what was sent meanwhile), so every consumer keeps a polling
 * fallback (the scan-login screen does).
 */
import type { AuthUser } from '../domain/auth/auth-plugin.js';

export type TopicListener = (data: unknown) => void;
export type TopicCheck = (user: AuthUser | null, topic: string) => boolean;

/** Where publishes also go: the other server processes (./pg-fanout.ts). */
export interface HubRemote {
  send(topic: string, data: unknown): void;
}

export class Hub {
  private remote: HubRemote | null = null;
  private readonly listeners = new Map<string, Set<TopicListener>>();
  private readonly checks: Array<{ prefix: string; exact?: boolean; check: TopicCheck }> = [
    { prefix: 'user:', check: (user, topic) => user !== null && topic === `user:${user.id}` },
  ];

  /** Lets sockets subscribe to topics starting with `prefix` when `check` says so. */
  allow(prefix: string, check: TopicCheck): void {
    this.checks.push({ prefix, check });
  }

  /** Lets sockets subscribe to exactly `topic` when `check` says so (one topic for a whole board). */
  allowTopic(topic: string, check: TopicCheck): void {
    this.checks.push({ prefix: topic, exact: true, check });
  }

  /** Whether `user` (null: no token given) may subscribe to `topic`. */
  mayListen(user: AuthUser | null, topic: string): boolean {
    const rule = this.checks.find((r) =>
      r.exact ? topic === r.prefix : topic.startsWith(r.prefix) && topic.length > r.prefix.length,
    );
    return rule ? rule.check(user, topic) : false;
  }

  /** Whether a topic's prefix is public (its check passes without a user). */
  needsUser(topic: string): boolean {
    return !this.mayListen(null, topic);
  }

  subscribe(topic: string, listener: TopicListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(topic);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(topic);
    };
  }

  /** Sends every later publish to `remote` too (the other processes' hubs deliver it). */
  connect(remote: HubRemote): void {
    this.remote = remote;
  }

  /**
   * Delivers `data` to every subscriber of `topic` in this process and sends it to the other
   * processes; returns how many subscribers this process had.
   */
  publish(topic: string, data: unknown): number {
    const delivered = this.deliver(topic, data);
    this.remote?.send(topic, data);
    return delivered;
  }

  /** Delivers to this process's subscribers only (a message another process published). */
  deliver(topic: string, data: unknown): number {
    const set = this.listeners.get(topic);
    if (!set) return 0;
    for (const listener of [...set]) listener(data);
    return set.size;
  }

  /** Subscribers of one topic, or of all topics. */
  subscriberCount(topic?: string): number {
    if (topic !== undefined) return this.listeners.get(topic)?.size ?? 0;
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
