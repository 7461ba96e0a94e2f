/**
 * The plain-text dialogue that asks a mail server to switch to TLS on the same connection
 * (RFC 3207 SMTP `STARTTLS`, RFC 3501 IMAP `STARTTLS`, RFC 2595 POP3 `STLS`). Only as much of
 * each protocol as that takes: the greeting, (SMTP) EHLO, the command, its positive answer.
 * Bounded: every answer within the timeout, at most 16 KiB read in all.
 */
import type net from 'node:net';
import type { StarttlsProtocol } from '@wanxiang/core';

const MAX_BYTES = 16 * 1024;

/** The server did not agree to switch to TLS; the message says how, in Chinese. */
export class StarttlsError extends Error {
  override name = 'StarttlsError';
}

/** Reads CRLF-terminated lines from a socket, each within the deadline. */
class LineReader {
  private buffer = '';
  private total = 0;
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  private readonly onData = (chunk: Buffer) => {
    this.total += chunk.length;
    if (this.total > MAX_BYTES) return this.fail(new StarttlsError('服务器发送的内容过多'));
    this.buffer += chunk.toString('latin1');
    this.deliver();
  };
  private readonly onEnd = () => this.fail(new StarttlsError('服务器在 STARTTLS 之前关闭了连接'));
  private readonly onError = (error: Error) => this.fail(error);

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
  }

  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.waiting = { resolve, reject };
      this.deliver();
    });
  }

  /** Stops reading: the socket is handed to TLS. Anything buffered would be a protocol violation. */
  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('error', this.onError);
    this.socket.pause();
    if (this.buffer.length > 0) throw new StarttlsError('服务器在同意 STARTTLS 后仍发送了明文数据');
  }

  private deliver(): void {
    const at = this.buffer.indexOf('\n');
    if (!this.waiting || at < 0) return;
    const line = this.buffer.slice(0, at).replace(/\r$/, '');
    this.buffer = this.buffer.slice(at + 1);
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve(line);
  }

  private fail(error: Error): void {
    this.failure = error;
    this.waiting?.reject(error);
    this.waiting = null;
  }
}

/** An SMTP reply (its last line: `250 ok` after any `250-…` lines). */
async function smtpReply(reader: LineReader): Promise<string> {
  for (;;) {
    const line = await reader.next();
    if (!/^\d{3}-/.test(line)) return line;
  }
}

async function smtp(socket: net.Socket, reader: LineReader): Promise<void> {
  const greeting = await smtpReply(reader);
  if (!greeting.startsWith('220')) throw new StarttlsError(`SMTP 服务器拒绝连接：${greeting}`);
  socket.write('EHLO wanxiang.monitor\r\n');
  const ehlo = await smtpReply(reader);
  if (!ehlo.startsWith('250')) throw new StarttlsError(`SMTP 服务器不接受 EHLO：${ehlo}`);
  socket.write('STARTTLS\r\n');
  const answer = await smtpReply(reader);
  if (!answer.startsWith('220')) throw new StarttlsError(`SMTP 服务器不支持 STARTTLS：${answer}`);
}

async function imap(socket: net.Socket, reader: LineReader): Promise<void> {
  const greeting = await reader.next();
  if (!/^\* (OK|PREAUTH)/i.test(greeting)) throw new StarttlsError(`IMAP 服务器拒绝连接：${greeting}`);
  socket.write('a1 STARTTLS\r\n');
  for (;;) {
    const line = await reader.next();
    if (line.startsWith('*')) continue; // untagged lines (CAPABILITY) before the answer
    if (/^a1 OK/i.test(line)) return;
    throw new StarttlsError(`IMAP 服务器不支持 STARTTLS：${line}`);
  }
}

async function pop3(socket: net.Socket, reader: LineReader): Promise<void> {
  const greeting = await reader.next();
  if (!greeting.startsWith('+OK')) throw new StarttlsError(`POP3 服务器拒绝连接：${greeting}`);
  socket.write('STLS\r\n');
  const answer = await reader.next();
  if (!answer.startsWith('+OK')) throw new StarttlsError(`POP3 服务器不支持 STLS：${answer}`);
}

const DIALOGUES: Record<StarttlsProtocol, (socket: net.Socket, reader: LineReader) => Promise<void>> = {
  smtp,
  imap,
  pop3,
};

/**
 * Runs the protocol's STARTTLS dialogue on a connected socket; resolves when the server has
 * agreed and the socket is ready for the TLS handshake. Rejects with StarttlsError (or the
 * socket's error), or a timeout StarttlsError after `timeoutMs`.
 */
export async function negotiateStarttls(
  socket: net.Socket,
  protocol: StarttlsProtocol,
  timeoutMs: number,
): Promise<void> {
  const reader = new LineReader(socket);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StarttlsError(`${protocol.toUpperCase()} 服务器在 ${timeoutMs} 毫秒内没有应答`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([DIALOGUES[protocol](socket, reader), timeout]);
  } finally {
    clearTimeout(timer);
  }
  reader.detach();
}
