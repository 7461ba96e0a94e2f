/**
 * A TCP proxy in front of PostgreSQL that counts the statements its clients send (each Execute of
 * the extended protocol and each simple Query) and the round trips they take: a round trip starts
 * when a client sends while every statement it sent before is answered (PostgreSQL's
 * ReadyForQuery), so statements sent together (pipelined) are one. `BENCH_LOAD_COST`
 * (bench/load.ts) runs the server through it to say how many of each a kind of call makes —
 * figures the machine's speed does not move, where CPU per call swings with it; tests count the
 * round trips of statements sent together (server/test/db/send-together.test.ts).
 */
import net from 'node:net';

export interface StatementCounter {
  /** The port to connect to instead of PostgreSQL's. */
  port: number;
  /** Statements sent so far, over every connection. */
  statements(): number;
  /** Round trips so far, over every connection. */
  roundTrips(): number;
  /** Describe messages so far (a statement's rows asked to be described before it runs). */
  describes(): number;
  /**
   * Round trips of each transaction ended so far (a simple-query BEGIN to its COMMIT or
   * ROLLBACK, as Kysely sends them), in the order they ended.
   */
  transactions(): number[];
  close(): Promise<void>;
}

/** Protocol codes of the untyped messages a connection may open with (PostgreSQL's protocol docs). */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const DESCRIBE = 0x44; // 'D'
const EXECUTE = 0x45; // 'E'
const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'
const READY_FOR_QUERY = 0x5a; // 'Z'

/**
 * Splits a stream into the protocol's typed messages (a type byte and an int32 length that counts
 * itself), however the chunks cut them; `skip` bytes first (an untyped answer to an SSL request).
 */
function messages(onMessage: (type: number, body: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer, skip = 0) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let at = Math.min(skip, pending.length);
    for (;;) {
      if (pending.length - at < 5) break;
      const length = pending.readInt32BE(at + 1);
      if (pending.length - at < 1 + length) break;
      onMessage(pending[at] as number, pending.subarray(at + 5, at + 1 + length));
      at += 1 + length;
    }
    pending = pending.subarray(at);
  };
}

export async function countStatements(host: string, port: number): Promise<StatementCounter> {
  let statements = 0;
  let roundTrips = 0;
  let describes = 0;
  const transactions: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      // As node-postgres and PostgreSQL do: statements sent together are answered in several
      // writes, and with Nagle's algorithm the second would wait for the first's delayed ACK.
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    // Statements sent on this connection and not yet answered (a Sync or a simple Query each,
    // answered by one ReadyForQuery).
    let unanswered = 0;
    let sslAnswerPending = false;
    // Round trips of the transaction open on this connection (null: none open).
    let inTransaction: number | null = null;
    const fromServer = messages((type) => {
      if (type === READY_FOR_QUERY && unanswered > 0) unanswered--;
    });
    upstream.on('data', (chunk: Buffer) => {
      const skip = sslAnswerPending ? 1 : 0;
      sslAnswerPending = false;
      fromServer(chunk, skip);
      client.write(chunk);
    });
    // A statement closed (its Sync, or a simple Query) while nothing before it is unanswered
    // starts a round trip; one closed behind others rides theirs.
    const fromClient = messages((type, body) => {
      if (type === EXECUTE || type === QUERY) statements++;
      const text =
        type === QUERY ? body.toString('utf8', 0, Math.min(body.length, 20)).trim().toLowerCase() : '';
      if (/^(begin|start transaction)\b/.test(text)) inTransaction = 0;
      if (type === DESCRIBE) describes++;
      if (type !== SYNC && type !== QUERY) return;
      if (unanswered === 0) {
        roundTrips++;
        if (inTransaction !== null) inTransaction++;
      }
      if (/^(commit|rollback)\b/.test(text) && inTransaction !== null) {
        transactions.push(inTransaction);
        inTransaction = null;
      }
      unanswered++;
    });
    // The client's messages: the startup message has no type byte (nor do SSL and GSS requests
    // before it); every later one is typed.
    let startup: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (started) return fromClient(chunk);
      startup = Buffer.concat([startup, chunk]);
      let at = 0;
      while (!started && startup.length - at >= 8) {
        const length = startup.readInt32BE(at);
        if (startup.length - at < length) break;
        const code = startup.readInt32BE(at + 4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) sslAnswerPending = true;
        else started = true;
        at += length;
      }
      if (started) fromClient(startup.subarray(at));
      else startup = startup.subarray(at);
    });
    // Each side's end reaches the other, as it would without the proxy: PostgreSQL closing a
    // connection (a terminated backend, a restart) must close the client's too. Otherwise a client
    // waiting for an answer could wait for good: what it sent after the database's side had closed
    // was written to a closed socket, which fails without an 'error' event
    // (server/test/db/statement-counter.test.ts).
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    statements: () => statements,
    roundTrips: () => roundTrips,
    describes: () => describes,
    transactions: () => [...transactions],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A counting proxy in front of the database of `url` (a postgres:// URL), and the URL that goes
 * through it: the same database, user and options, on the proxy's port.
 */
export async function countedUrl(url: string): Promise<{ counter: StatementCounter; url: string }> {
  const through = new URL(url);
  const counter = await countStatements(through.hostname || 'localhost', Number(through.port || 5432));
  through.hostname = '127.0.0.1';
  through.port = String(counter.port);
  return { counter, url: through.toString() };
}
