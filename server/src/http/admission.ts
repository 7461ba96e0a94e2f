/**
 * Admission: at most `REQUEST_CONCURRENCY` requests at once do their database work in this
 * process; the others wait their turn, first come first served.
 *
 * Why: the server has one thread. With every request let in at once, a request that needs 20
 * round trips to the database (an order paid, with its ledger, stock, history and receipt) waits
 * behind everything else in flight after each of them, so under load the answers that do the most
 * wait the longest by far — at 64 connections on PostgreSQL an order payment's p99 was 380–430 ms
 * while a list waited 215–270 ms. Let in a few at a time, each round trip comes back to a short
 * queue and every request waits about as long as its turn: the mix's p99 fell from 281–310 ms to
 * 160–204 ms and throughput rose by a fifth or more (fewer live requests' objects for the
 * collector, fewer waits for a pool connection; BENCHMARKS.md, 2026-11-27 third session). On
 * SQLite, whose statements run on the thread itself, it changed nothing measurable either way.
 *
 * Opt-in per route (`preHandler: app.admit`), for routes whose work is the database: the
 * resources' lists, details and writes, the public content lists. Not for what waits on something
 * else — an outbound check, a printer, a password hash, an upload's body, an export's stream, a
 * websocket — since a slot held while waiting on the network holds up everyone behind it. The slot
 * is taken after the body is read and the permission checked, and given back as soon as the
 * answer exists (before it is written to a slow reader), on any outcome.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Measured at 64 connections, PostgreSQL on the same machine: 4 a little better than 8, both far
 * better than none (server/CONFIG.md); 8 leaves room for a database across a network.
 */
export const DEFAULT_REQUEST_CONCURRENCY = 8;

/** A counting gate with a first-come-first-served queue. */
export class Admission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** `limit` 0: everyone goes in at once (no gate). */
  constructor(readonly limit: number) {}

  /** Resolves when the caller may go on; every `enter` is matched by one `leave`. */
  enter(): Promise<void> | undefined {
    if (this.limit <= 0) return undefined;
    if (this.active < this.limit) {
      this.active++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    if (this.limit <= 0) return;
    const next = this.waiting.shift();
    // The slot passes straight to the next in line: nobody can jump the queue in between.
    if (next) next();
    else this.active--;
  }

  /** Requests inside now, and waiting. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

const HOLDS = Symbol('admission slot');

declare module 'fastify' {
  interface FastifyInstance {
    admission: Admission;
    /** A route's preHandler: waits for a slot (see above). */
    admit: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    [HOLDS]?: boolean;
  }
}

export const admissionPlugin = fp<{ limit: number }>(
  async (app, { limit }) => {
    const admission = new Admission(limit);
    app.decorate('admission', admission);
    const release = (request: FastifyRequest) => {
      if (!request[HOLDS]) return;
      request[HOLDS] = false;
      admission.leave();
    };
    app.decorate('admit', async function admit(request: FastifyRequest, reply: FastifyReply) {
      if (request[HOLDS] !== undefined) return;
      await admission.enter();
      request[HOLDS] = true;
      // The response's end, however it ends (a client gone mid-way too): never a slot kept.
      reply.raw.once('close', () => release(request));
    });
    // The answer exists (an error's too): the slot goes before it is written out.
    app.addHook('onSend', async (request, _reply, payload) => {
      release(request);
      return payload;
    });
  },
  { name: 'admission' },
);
