/**
 * One certificate check: a real TLS handshake with SNI on any host:port, implicit TLS or
 * STARTTLS, under the outbound policy (net/outbound.ts: resolved, every address checked, the
 * socket connected to the checked address). The chain is read whatever it is
 * (`rejectUnauthorized: false`), then judged: OpenSSL's verification against the system roots
 * plus the job's own CA bundle, `tls.checkServerIdentity` for the name, core's
 * `certificateVerdict` for the rest.
 *
 * Throws only the policy's refusal (OutboundRefusedError): the caller answers that as a refusal,
 * not as a result. Everything else that goes wrong is the verdict `unreachable` with why.
 */
import net from 'node:net';
import tls from 'node:tls';
import { type CertificateCheckResult, certificateVerdict, type StarttlsProtocol } from '@wanxiang/core';
import {
  connectOutbound,
  type OutboundPolicy,
  OutboundRefusedError,
  OutboundTimeoutError,
  OutboundUnresolvedError,
  resolveOutbound,
} from '../../net/outbound.js';
import { chainOf } from './chain.js';
import { negotiateStarttls, StarttlsError } from './starttls.js';

export interface CheckCertificateInput {
  host: string;
  port: number;
  starttls?: StarttlsProtocol | 'none' | null;
  /** The SNI name and the name the certificate must cover; the host when empty (no SNI for an IP). */
  servername?: string | null;
  /** Extra trusted roots (PEM), trusted together with the system's. */
  caPem?: string | null;
  policy: OutboundPolicy;
  /** Each step (resolve, connect, STARTTLS, handshake) within this. */
  timeoutMs: number;
  now: number;
  notifyDays: readonly number[];
}

/** Why a connection failed, in Chinese, from node's error. */
export function unreachableReason(error: unknown, where: string): string {
  if (error instanceof OutboundUnresolvedError || error instanceof StarttlsError) return error.message;
  if (error instanceof OutboundTimeoutError) return `连接超时（${where}）`;
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return `连接被拒绝（${where}），端口未开放`;
    case 'ECONNRESET':
      return `连接被重置（${where}）`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `网络不可达（${where}）`;
    case 'ETIMEDOUT':
      return `连接超时（${where}）`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `TLS 握手失败（${where}）：${message}`;
    }
  }
}

class HandshakeTimeout extends Error {
  constructor(where: string, timeoutMs: number) {
    super(`TLS 握手超时（${where}，${timeoutMs} 毫秒内未完成）`);
  }
}

function handshake(
  socket: net.Socket,
  servername: string | undefined,
  ca: string[] | undefined,
  timeoutMs: number,
  where: string,
): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({
      socket,
      servername,
      ca,
      rejectUnauthorized: false,
      // The name is checked below, apart from the chain: a mismatch is its own verdict.
      checkServerIdentity: () => undefined,
    });
    const timer = setTimeout(() => {
      secure.destroy();
      reject(new HandshakeTimeout(where, timeoutMs));
    }, timeoutMs);
    secure.once('secureConnect', () => {
      clearTimeout(timer);
      secure.removeListener('error', onError);
      resolve(secure);
    });
    const onError = (error: Error) => {
      clearTimeout(timer);
      secure.destroy();
      reject(error);
    };
    secure.once('error', onError);
  });
}

/** Checks the certificate of `host:port`; see the module comment. */
export async function checkCertificate(input: CheckCertificateInput): Promise<CertificateCheckResult> {
  const { host, port, timeoutMs } = input;
  const where = `${host}:${port}`;
  const checkedAt = new Date(input.now).toISOString();
  const base = { host, port, checkedAt };
  const failed = (reason: string): CertificateCheckResult => {
    const v = certificateVerdict({
      now: input.now,
      notBefore: null,
      notAfter: null,
      unreachable: reason,
      notifyDays: input.notifyDays,
    });
    return { ...base, ...v, chain: [] };
  };

  let socket: net.Socket | undefined;
  let secure: tls.TLSSocket | undefined;
  try {
    // The policy's refusal propagates: nothing was connected.
    const targets = await resolveOutbound(host, input.policy, { timeoutMs });
    socket = await connectOutbound(targets, { port, timeoutMs });
    const protocol = input.starttls && input.starttls !== 'none' ? input.starttls : null;
    if (protocol) await negotiateStarttls(socket, protocol, timeoutMs);
    const name = input.servername || host;
    // SNI carries host names only (RFC 6066), never an IP literal.
    const sni = net.isIP(name) ? undefined : name;
    const ca = input.caPem ? [...tls.rootCertificates, input.caPem] : undefined;
    secure = await handshake(socket, sni, ca, timeoutMs, where);

    const peer = secure.getPeerCertificate(true);
    const chain = chainOf(peer);
    if (!chain) return failed(`服务器未提供证书（${where}）`);
    const identity = tls.checkServerIdentity(name, peer);
    const trustError = secure.authorizationError as unknown as string | Error | null;
    const trustErrorCode =
      trustError === null || trustError === undefined
        ? null
        : typeof trustError === 'string'
          ? trustError
          : ((trustError as NodeJS.ErrnoException).code ?? trustError.message);
    const verdict = certificateVerdict({
      now: input.now,
      notBefore: Date.parse(chain.leaf.validFrom),
      notAfter: Date.parse(chain.leaf.validTo),
      hostnameError: identity ? identity.message : null,
      host: name,
      trustErrorCode,
      notifyDays: input.notifyDays,
    });
    return { ...base, ...verdict, chain: chain.entries };
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw error;
    if (error instanceof HandshakeTimeout) return failed(error.message);
    return failed(unreachableReason(error, where));
  } finally {
    secure?.destroy();
    socket?.destroy();
  }
}
