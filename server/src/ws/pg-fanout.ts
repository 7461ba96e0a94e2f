/**
 * `/ws` across server processes on PostgreSQL: every publish is also sent with NOTIFY on one
 * channel, and every process LISTENs on it and hands what the others published to its own
 * sockets (ws/hub.ts). No infrastructure beyond the database the processes already share.
 *
 * - One dedicated connection per process (not from the pool: a LISTEN lives as long as its
 *   session, and a pooled connection is handed to whoever asks next). It both listens and
 *   notifies, one statement after the other, so one process's publishes reach the others in the
 *   order they were made (PostgreSQL delivers a session's notifications in commit order). Across
 *   processes there is no order, as there is none between two requests.
 * - Exactly once per process: the publishing process delivers to its own sockets at once (Hub),
 *   and each message carries this process's `origin`, so its own notification is skipped.
 *   Delivering locally first costs no round trip and keeps a process's own pushes working while
 *   its listener is away.
 * - The channel is per schema (`wanxiang_hub_<hash of current_schema()>`): channels are
 *   database-wide, and two installs (or two test runs) in one database must not hear each other.
 * - NOTIFY payloads stop at 8000 bytes. A message over INLINE_MAX_BYTES goes by reference: a row
 *   in `hub_messages` inserted on the same connection just before the NOTIFY (so it is committed
 *   when the notification is heard), read by each listener through the pool, pruned after
 *   MESSAGE_RETENTION_MS by the publishers themselves. Listeners handle messages in arrival order,
 *   a referenced one read in its turn.
 * - A dropped connection (a database restart, a failover, pg_terminate_backend) is opened again
 *   with a growing delay, and LISTENs again. Publishes made meanwhile wait in a bounded queue and
 *   are sent once it is back; notifications the others sent meanwhile are lost (NOTIFY is not
 *   stored for sessions not listening), so every consumer keeps its polling fallback (the scan-
 *   login screen polls its ticket, the orders board reloads its list). A NOTIFY cut off mid-flight
 *   is sent again: at most a duplicate, which consumers already tolerate (a status, a row).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema.js';

/** What fits a NOTIFY payload (8000 bytes) with room to spare; larger goes by reference. */
export const INLINE_MAX_BYTES = 7900;
/** Referenced messages are deleted after this; a listener slower than that has lost them anyway. */
export const MESSAGE_RETENTION_MS = 60_000;
/** Publishes held while the connection is away or busy; past this the oldest are dropped (and logged). */
export const MAX_QUEUED = 10_000;
/**
 * Small messages sent in one statement: a burst (an import moving many orders) costs a round
 * trip per batch, not per message — 5 000 publishes in ~1 s instead of ~3 s one by one.
 */
const BATCH = 100;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5000;
/** Tries to send one message before it is dropped (an error that is not the connection's). */
const MAX_TRIES = 3;

/**
 * On the channel: inline `{o, s, t, d}` or by reference `{o, s, r}`. `s` counts this process's
 * messages: PostgreSQL delivers identical payloads of one transaction (a batch) only once, and
 * two identical publishes must both arrive.
 */
interface WireMessage {
  o: string;
  s: number;
  t?: string;
  d?: unknown;
  r?: number;
}

interface Outgoing {
  json: string;
  /** Larger than a payload: stored in hub_messages, the NOTIFY carries its id. */
  large: boolean;
  tries: number;
}

export interface PgFanoutOptions {
  url: string;
  /** The pool, for reading referenced messages (the listener's own connection may be busy sending). */
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  now: () => number;
  /** Hands a message another process published to this process's sockets. */
  deliver(topic: string, data: unknown): void;
}

/**
 * Whether a failed statement failed for its connection (sent again on the next one) rather than
 * for itself: not an error the server answered (a socket error, a client no longer queryable),
 * or one of class 08
 * (connection exception) or 57 (operator intervention: pg_terminate_backend, a shutdown).
 */
function connectionFailed(err: unknown): boolean {
  return !(err instanceof pg.DatabaseError) || /^(08|57)/.test(err.code ?? '');
}

export class PgFanout {
  /** This process's mark on its messages, so it skips its own notifications. */
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private channel: string | null = null;
  private queue: Outgoing[] = [];
  private sending = false;
  /** A flush is due once the current task's publishes are queued. */
  private flushQueued = false;
  private reconnecting = false;
  private closed = false;
  private incoming: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  private sequence = 0;
  private listening: Promise<void>;
  private markListening: () => void = () => undefined;
  /** Counts the connections that have listened: notifications between two of them were lost. */
  private generation = 0;

  constructor(private readonly options: PgFanoutOptions) {
    this.listening = this.newListeningPromise();
  }

  /** Opens the connection and listens; fails when the database cannot be reached now. */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Resolves once the connection listens (at once when it does): tests wait on it after a drop. */
  whenListening(): Promise<void> {
    return this.listening;
  }

  /**
   * Which listening connection this is (a new number after every reconnect), or null while none
   * listens: what is kept in memory on the strength of hearing every change (auth's session
   * memo) is kept under one number only, and not at all while it is null.
   */
  get listenGeneration(): number | null {
    return this.client ? this.generation : null;
  }

  /** The listening session's backend pid (pg_stat_activity), or null while reconnecting. */
  get backendPid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  /** Sends a publish to the other processes (after this process delivered it to its own sockets). */
  send(topic: string, data: unknown): void {
    if (this.closed) return;
    const json = JSON.stringify({
      o: this.origin,
      s: ++this.sequence,
      t: topic,
      d: data,
    } satisfies WireMessage);
    this.queue.push({ json, large: Buffer.byteLength(json) > INLINE_MAX_BYTES, tries: 0 });
    if (this.queue.length > MAX_QUEUED) {
      const dropped = this.queue.splice(0, this.queue.length - MAX_QUEUED);
      this.options.log.warn({ dropped: dropped.length }, '/ws fan-out queue full: oldest publishes dropped');
    }
    // After the current task's other publishes (a payment's paid and accepted, sent one after the
    // other after its commit): they leave together, one statement.
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        void this.flush();
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await this.incoming;
  }

  private newListeningPromise(): Promise<void> {
    return new Promise((resolve) => {
      this.markListening = resolve;
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: 'wanxiang-ws-hub',
      // A connection silently gone (a machine switched off, a NAT forgetting it) is noticed.
      keepAlive: true,
    });
    const dropped = (err?: Error) => this.dropped(client, err);
    client.on('error', dropped);
    client.on('end', () => dropped());
    await client.connect();
    try {
      if (!this.channel) {
        const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
        const schema = rows[0]?.schema ?? 'public';
        this.channel = `wanxiang_hub_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
      }
      const channel = this.channel;
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload) this.received(message.payload);
      });
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.generation++;
    this.markListening();
    void this.flush();
  }

  private dropped(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = this.newListeningPromise();
    if (this.closed) return;
    this.options.log.warn({ err }, '/ws fan-out connection lost: reconnecting');
    client.end().catch(() => undefined);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    let wait = RECONNECT_FIRST_MS;
    try {
      while (!this.closed && !this.client) {
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
        if (this.closed) return;
        try {
          await this.connect();
          this.options.log.info('/ws fan-out listening again');
        } catch (err) {
          this.options.log.warn({ err }, '/ws fan-out could not reconnect yet');
          wait = Math.min(wait * 2, RECONNECT_MAX_MS);
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  /** Sends the queue in order on the listening connection; stops when it is away. */
  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      for (let next = this.queue[0]; next && this.client && this.channel; next = this.queue[0]) {
        const client = this.client;
        try {
          const sent = new Set(await this.sendNext(client, this.channel));
          // By identity: a burst past MAX_QUEUED may have dropped the head meanwhile.
          this.queue = this.queue.filter((m) => !sent.has(m));
        } catch (err) {
          if (connectionFailed(err)) {
            // Kept for the connection that replaces this one.
            this.dropped(client, err as Error);
            break;
          }
          // The message itself refused: it must not block the queue for ever.
          next.tries++;
          if (next.tries >= MAX_TRIES) {
            this.queue.shift();
            this.options.log.warn({ err }, '/ws fan-out message dropped');
          }
        }
      }
    } finally {
      this.sending = false;
    }
    // A publish queued after the loop looked, or a connection back meanwhile.
    if (this.queue.length > 0 && this.client && !this.sending) void this.flush();
  }

  /** Sends the queue's head: a run of small messages in one statement, or one large one. Returns them. */
  private async sendNext(client: pg.Client, channel: string): Promise<Outgoing[]> {
    const message = this.queue[0] as Outgoing;
    if (!message.large) {
      let n = 1;
      while (n < BATCH && this.queue[n] && !this.queue[n]?.large) n++;
      const batch = this.queue.slice(0, n);
      const payloads = batch.map((m) => m.json);
      // One transaction: delivered in the order sent (`with ordinality` keeps the array's order).
      // Named: sent after most writes' commits, parsed once per connection instead of each time.
      await client.query({
        name: 'wx_fanout',
        text: 'select pg_notify($1, p) from unnest($2::text[]) with ordinality as m(p, i) order by i',
        values: [channel, payloads],
      });
      return batch;
    }
    const now = this.options.now();
    const { rows } = await client.query<{ id: number }>(
      'insert into hub_messages (created_at, payload) values ($1, $2) returning id',
      [now, message.json],
    );
    const reference: WireMessage = { o: this.origin, s: ++this.sequence, r: Number(rows[0]?.id) };
    await client.query('select pg_notify($1, $2)', [channel, JSON.stringify(reference)]);
    if (now - this.lastPrune > MESSAGE_RETENTION_MS) {
      this.lastPrune = now;
      await client.query('delete from hub_messages where created_at < $1', [now - MESSAGE_RETENTION_MS]);
    }
    return [message];
  }

  private received(payload: string): void {
    let message: WireMessage;
    try {
      message = JSON.parse(payload) as WireMessage;
    } catch {
      return;
    }
    if (message.o === this.origin) return;
    // In arrival order, a referenced message read in its turn.
    this.incoming = this.incoming
      .then(async () => {
        const full = message.r === undefined ? message : await this.referenced(message.r);
        if (full && typeof full.t === 'string') this.options.deliver(full.t, full.d);
      })
      .catch((err) => this.options.log.warn({ err }, '/ws fan-out message not delivered'));
  }

  private async referenced(id: number): Promise<WireMessage | null> {
    const row = await this.options.db
      .selectFrom('hub_messages')
      .select('payload')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? (JSON.parse(row.payload) as WireMessage) : null;
  }
}
