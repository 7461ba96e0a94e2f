/**
 * A TCP proxy in front of PostgreSQL that counts the statements its clients send: each Execute of
 * the extended protocol and each simple Query. `BENCH_LOAD_COST` runs the server through it to say
 * how many round trips each kind of call makes — a figure the machine's speed does not move, where
 * CPU per call swings with it.
 */
import net from 'node:net';

export interface StatementCounter {
  /** The port to connect to instead of PostgreSQL's. */
  port: number;
  /** Statements sent so far, over every connection. */
  statements(): number;
  close(): Promise<void>;
}

/** Protocol codes of the untyped messages a connection may open with (PostgreSQL's protocol docs). */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const EXECUTE = 0x45; // 'E'
const QUERY = 0x51; // 'Q'

export async function countStatements(host: string, port: number): Promise<StatementCounter> {
  let statements = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    // The client's messages: the startup message has no type byte (nor do SSL and GSS requests
    // before it); every later one is a type byte and an int32 length that counts itself.
    let pending: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      for (;;) {
        if (!started) {
          if (pending.length - at < 8) break;
          const length = pending.readInt32BE(at);
          if (pending.length - at < length) break;
          const code = pending.readInt32BE(at + 4);
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) started = true;
          at += length;
          continue;
        }
        if (pending.length - at < 5) break;
        const type = pending[at];
        const length = pending.readInt32BE(at + 1);
        if (pending.length - at < 1 + length) break;
        if (type === EXECUTE || type === QUERY) statements++;
        at += 1 + length;
      }
      pending = pending.subarray(at);
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    statements: () => statements,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
