/**
 * Every connection the server makes out (printers now; monitor jobs, certificate checks,
 * third-party tests and image fetches as they arrive) goes through here, under one policy
 * (QUALITY.md "outbound connections", ARCHITECTURE.md):
 *
 * - the host is resolved once (every address `dns.lookup` gives, within a timeout), each address
 *   is classified by ipaddr.js, and a target some address of which the policy does not allow is
 *   refused as a whole — a name that resolves to a public and a private address is not a way in;
 * - the socket then connects to the very addresses that were checked (IP literals, so no second
 *   lookup; the next one when one does not connect, as for a name with IPv4 and IPv6 addresses):
 *   a DNS answer that changes between the check and the connect (rebinding) changes nothing;
 * - loopback, private (RFC 1918, unique local, carrier-grade NAT), link-local and other
 *   special-purpose addresses are for users with the monitoring permission only (core's
 *   `mayReachPrivateNetworks`); everyone else reaches public unicast addresses;
 * - every step has a timeout; callers bound what they read (the printer transport, 64 KiB).
 */
import dns from 'node:dns';
import net from 'node:net';
import { mayReachPrivateNetworks } from '@wanxiang/core';
import ipaddr from 'ipaddr.js';

/** What an address is, as the policy sees it. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'linkLocal' | 'special';

/** How a refusal names the kind of address, e.g. 不能连接本机地址. */
export const ADDRESS_KIND_LABEL: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: '本机',
  private: '内网',
  linkLocal: '链路本地',
  special: '保留',
};

/** The ranges of ipaddr.js that are a private network of some kind. */
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat', 'deprecatedSiteLocal']);

/** Classifies an IP address (IPv4-mapped IPv6 addresses as the IPv4 address they carry). */
export function classifyAddress(address: string): AddressKind {
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return 'public';
  if (range === 'loopback') return 'loopback';
  if (range === 'linkLocal') return 'linkLocal';
  if (PRIVATE_RANGES.has(range)) return 'private';
  // unspecified (0.0.0.0 reaches this machine), broadcast, multicast, documentation, 6to4 and
  // NAT64 prefixes that may embed any IPv4 address, …
  return 'special';
}

/** The kind of `host` when it is an IP literal; null for a host name (known only once resolved). */
export function literalAddressKind(host: string): AddressKind | null {
  return net.isIP(host) ? classifyAddress(host) : null;
}

/** Who a connection is made for, as far as the policy cares. */
export interface OutboundPolicy {
  mayReachPrivate: boolean;
}

export function outboundPolicyOf(permissions: readonly string[]): OutboundPolicy {
  return { mayReachPrivate: mayReachPrivateNetworks(permissions) };
}

/** Whether the policy lets a connection reach an address of this kind. */
export function allows(policy: OutboundPolicy, kind: AddressKind): boolean {
  return kind === 'public' || policy.mayReachPrivate;
}

/** The policy does not allow the target: nothing was connected. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: Exclude<AddressKind, 'public'>,
  ) {
    const where = host === address ? address : `${host} → ${address}`;
    super(`没有监控权限，不能连接${ADDRESS_KIND_LABEL[kind]}地址（${where}）`);
  }
}

/** The host name did not resolve (unknown, or no answer within the timeout). */
export class OutboundUnresolvedError extends Error {
  override name = 'OutboundUnresolvedError';
  constructor(
    readonly host: string,
    readonly timedOut: boolean,
  ) {
    super(timedOut ? `解析主机名超时（${host}）` : `无法解析主机名（${host}）`);
  }
}

/** Connecting took longer than allowed. */
export class OutboundTimeoutError extends Error {
  override name = 'OutboundTimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(readonly address: string) {
    super(`connect timeout (${address})`);
  }
}

/** A checked target: connect to `address`, never to the name again. */
export interface OutboundTarget {
  host: string;
  address: string;
  family: 4 | 6;
  kind: AddressKind;
}

export interface ResolveOptions {
  timeoutMs: number;
}

type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Resolves `host` and checks every address against `policy`; answers the addresses to connect
 * to, in the resolver's order (never empty). Throws OutboundRefusedError or OutboundUnresolvedError.
 */
export async function resolveOutbound(
  host: string,
  policy: OutboundPolicy,
  options: ResolveOptions,
): Promise<OutboundTarget[]> {
  const addresses = net.isIP(host)
    ? [{ address: host, family: net.isIP(host) }]
    : await lookup(host, options);
  if (addresses.length === 0) throw new OutboundUnresolvedError(host, false);
  const targets = addresses.map(({ address, family }) => ({
    host,
    address,
    family: family === 6 ? 6 : 4,
    kind: classifyAddress(address),
  })) satisfies OutboundTarget[];
  const refused = targets.find((t) => !allows(policy, t.kind));
  if (refused)
    throw new OutboundRefusedError(host, refused.address, refused.kind as Exclude<AddressKind, 'public'>);
  return targets;
}

async function lookup(host: string, options: ResolveOptions) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutboundUnresolvedError(host, true)), options.timeoutMs);
  });
  try {
    return await Promise.race([lookupAll(host), timeout]);
  } catch (error) {
    if (error instanceof OutboundUnresolvedError) throw error;
    // ENOTFOUND, EAI_AGAIN, …: the name does not resolve.
    throw new OutboundUnresolvedError(host, false);
  } finally {
    clearTimeout(timer);
  }
}

export interface ConnectOptions {
  port: number;
  timeoutMs: number;
}

/**
 * A TCP connection to the first of the checked addresses that connects, each within the timeout
 * (no lookup: what was checked is what is reached). Rejects with the last address's error
 * (ECONNREFUSED, …) or OutboundTimeoutError.
 */
export async function connectOutbound(
  targets: readonly OutboundTarget[],
  options: ConnectOptions,
): Promise<net.Socket> {
  let failure: unknown = new Error('no address to connect to');
  for (const target of targets) {
    try {
      return await connectOne(target, options);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

function connectOne(target: OutboundTarget, options: ConnectOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.address, port: options.port, family: target.family });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new OutboundTimeoutError(`${target.address}:${options.port}`));
    }, options.timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(socket);
    });
    const onError = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
  });
}
