/**
 * One try at handing a job's bytes to a network printer (raw TCP, "JetDirect", port 9100): the
 * connection goes to the address the outbound policy checked (net/outbound.ts), the bytes are
 * written and our side closed, and the job counts as taken once the printer closes its side —
 * a printer reads until the end of the data, then closes; a closed connection with unread data
 * would have been reset instead. This is how CUPS's socket backend knows a job arrived
 * (`waiteof`, on by default). A printer that accepts but never reads or never closes is a
 * failure after the write timeout.
 *
 * Failures are said in Chinese with the printer's host and port, as the admin will see them.
 */
import { connectOutbound, type OutboundTarget, OutboundTimeoutError } from '../../net/outbound.js';

/** What a printer may send back (status bytes) before we stop listening: anything more is not a printer. */
const MAX_REPLY_BYTES = 64 * 1024;

export interface SendTimeouts {
  connectTimeoutMs: number;
  writeTimeoutMs: number;
}

/** A try that failed; `connected` when the printer was reached (it is on the network). */
export class PrintFailure extends Error {
  override name = 'PrintFailure';
  constructor(
    message: string,
    readonly connected: boolean,
  ) {
    super(message);
  }
}

/** The failure of connecting, in words: refused, timed out, unreachable. */
export function connectFailure(error: unknown, where: string): PrintFailure {
  if (error instanceof OutboundTimeoutError) return new PrintFailure(`打印机连接超时（${where}）`, false);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return new PrintFailure(`打印机拒绝连接（${where}），请检查端口是否为 9100`, false);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return new PrintFailure(`无法到达打印机（${where}），请检查打印机是否开机并与服务器在同一网络`, false);
    case 'ETIMEDOUT':
      return new PrintFailure(`打印机连接超时（${where}）`, false);
    default:
      return new PrintFailure(
        `连接打印机失败（${where}）：${code ?? (error as Error)?.message ?? error}`,
        false,
      );
  }
}

/** Sends `bytes` to the printer at one of `targets` (checked addresses), `port`; resolves once the printer has taken them. */
export async function sendToPrinter(
  targets: readonly OutboundTarget[],
  port: number,
  bytes: Uint8Array,
  timeouts: SendTimeouts,
  where: string,
): Promise<void> {
  let socket: Awaited<ReturnType<typeof connectOutbound>>;
  try {
    socket = await connectOutbound(targets, { port, timeoutMs: timeouts.connectTimeoutMs });
  } catch (error) {
    throw connectFailure(error, where);
  }
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    let received = 0;
    const finish = (failure?: PrintFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (failure) reject(failure);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        finish(new PrintFailure(`打印机未响应（${where}）：数据已发出，打印机未在规定时间内确认接收`, true)),
      timeouts.writeTimeoutMs,
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REPLY_BYTES)
        finish(new PrintFailure(`对方不像打印机（${where}）：返回了过多数据`, true));
    });
    // The printer closed its side after reading everything: the job is in its hands.
    socket.on('end', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(new PrintFailure(`打印机连接中断（${where}）：${error.code ?? error.message}`, true)),
    );
    socket.on('close', () => finish(new PrintFailure(`打印机连接中断（${where}）`, true)));
    socket.end(bytes);
  });
}
