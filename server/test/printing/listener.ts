/**
 * Printers for tests: a local `net.createServer` listener that captures what a connection
 * sends, and ESC/POS helpers to read it back — the text decoded from GBK, the commands found
 * in the bytes, the QR code's data, the printed lines with the commands taken out.
 */
import net from 'node:net';
import iconv from 'iconv-lite';

export interface FakePrinter {
  port: number;
  /** Every connection's bytes, in order of arrival (complete once the client ended). */
  readonly jobs: Buffer[];
  /** Connections accepted so far. */
  connections(): number;
  /** Resolves once `n` jobs have arrived (no timers: the listener's own events). */
  received(n: number): Promise<Buffer[]>;
  /** Resolves once `n` connections have been accepted. */
  accepted(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `ack`: reads everything and closes its side once the client has ended, as a raw-TCP printer
 * does. `silent`: accepts and never reads nor closes (a printer that hangs).
 */
export async function startPrinter(mode: 'ack' | 'silent' = 'ack'): Promise<FakePrinter> {
  const jobs: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    wake();
    if (mode === 'silent') {
      socket.pause();
      return;
    }
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks));
      socket.end();
      wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (done() ? resolve() : waiters.push(check));
      check();
    });
  return {
    port,
    jobs,
    connections: () => accepted,
    received: async (n) => {
      await until(() => jobs.length >= n);
      return jobs.slice(0, n);
    },
    accepted: (n) => until(() => accepted >= n),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a listener opened and closed again): connecting is refused. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const ESC = 0x1b;
export const GS = 0x1d;
export const FS = 0x1c;

/** How many times `sequence` occurs in `bytes`. */
export function count(bytes: Buffer, sequence: readonly number[]): number {
  const needle = Buffer.from(sequence);
  let n = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) n++;
  return n;
}

/** The data of every QR code (GS ( k, function 180: store the data). */
export function qrCodes(bytes: Buffer): string[] {
  const found: string[] = [];
  for (let i = 0; i + 7 < bytes.length; i++) {
    if (bytes[i] !== GS || bytes[i + 1] !== 0x28 || bytes[i + 2] !== 0x6b) continue;
    const length = (bytes[i + 3] as number) + (bytes[i + 4] as number) * 256;
    if (bytes[i + 5] === 0x31 && bytes[i + 6] === 0x50 && bytes[i + 7] === 0x30)
      found.push(bytes.subarray(i + 8, i + 5 + length).toString('latin1'));
  }
  return found;
}

/**
 * The bytes with the commands the receipts use taken out: what the paper shows as text, one
 * entry per printed line (GBK decoded). QR codes become a `[QR:data]` line.
 */
export function printedLines(bytes: Buffer): string[] {
  const text: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const next = bytes[i + 1];
    if (b === ESC && next === 0x40)
      i += 2; // ESC @ initialize
    else if (b === FS && (next === 0x2e || next === 0x26))
      i += 2; // FS . / FS & Chinese mode off / on
    else if (b === ESC && (next === 0x4d || next === 0x45 || next === 0x61))
      i += 3; // ESC M / E / a n
    else if (b === GS && (next === 0x21 || next === 0x56))
      i += 3; // GS ! n, GS V m
    else if (b === GS && next === 0x28 && bytes[i + 2] === 0x6b) {
      const length = (bytes[i + 3] as number) + (bytes[i + 4] as number) * 256;
      if (bytes[i + 6] === 0x50) text.push(...Buffer.from(`[QR:${qrCodes(bytes.subarray(i))[0]}]`));
      i += 5 + length;
    } else if (b < 0x20 && b !== 0x0a) throw new Error(`unexpected control byte 0x${b.toString(16)} at ${i}`);
    else {
      text.push(b);
      i += 1;
    }
  }
  return iconv.decode(Buffer.from(text), 'gbk').split('\n');
}

/** Columns a printed line takes: its GBK length. */
export function columnsOf(line: string): number {
  return iconv.encode(line, 'gbk').length;
}
