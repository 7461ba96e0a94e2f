/**
 * The outbound policy (QUALITY.md): how addresses are classified, who may reach which, and that
 * a connection goes to the address that was checked.
 */
import net from 'node:net';
import { permissionsOf } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  connectOutbound,
  literalAddressKind,
  OutboundRefusedError,
  OutboundUnresolvedError,
  outboundPolicyOf,
  resolveOutbound,
} from '../../src/net/outbound.js';

const admin = outboundPolicyOf(permissionsOf(['admin']));
const operator = outboundPolicyOf(permissionsOf(['operator']));

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['114.114.114.114', 'public'],
    ['2400:3200::1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.50', 'private'],
    ['::ffff:192.168.1.50', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['0.0.0.0', 'special'],
    ['::', 'special'],
    ['224.0.0.1', 'special'],
    ['255.255.255.255', 'special'],
    ['2002:c0a8:0132::1', 'special'],
  ] as const)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('knows a literal at once and a host name only once resolved', () => {
    expect(literalAddressKind('192.168.1.50')).toBe('private');
    expect(literalAddressKind('printer.local')).toBeNull();
  });
});

describe('resolveOutbound', () => {
  it('lets the monitoring permission reach loopback and LAN addresses, and no one else', async () => {
    expect(await resolveOutbound('192.168.1.50', admin, { timeoutMs: 1000 })).toEqual([
      { host: '192.168.1.50', address: '192.168.1.50', family: 4, kind: 'private' },
    ]);
    await expect(resolveOutbound('192.168.1.50', operator, { timeoutMs: 1000 })).rejects.toThrow(
      '没有监控权限，不能连接内网地址（192.168.1.50）',
    );
    await expect(resolveOutbound('169.254.169.254', operator, { timeoutMs: 1000 })).rejects.toThrow(
      '没有监控权限，不能连接链路本地地址（169.254.169.254）',
    );
    expect(await resolveOutbound('8.8.8.8', operator, { timeoutMs: 1000 })).toMatchObject([
      { kind: 'public' },
    ]);
  });

  it('checks the addresses a host name resolves to: localhost is this machine', async () => {
    const refused = await resolveOutbound('localhost', operator, { timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(OutboundRefusedError);
    expect((refused as OutboundRefusedError).kind).toBe('loopback');
    expect((refused as Error).message).toMatch(
      /^没有监控权限，不能连接本机地址（localhost → (127\.0\.0\.1|::1)）$/,
    );
    const targets = await resolveOutbound('localhost', admin, { timeoutMs: 2000 });
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      expect(net.isIP(target.address)).not.toBe(0);
      expect(target.kind).toBe('loopback');
    }
  });

  it('says when a name does not resolve', async () => {
    const error = await resolveOutbound('no-such-host.invalid', admin, { timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundUnresolvedError);
    expect((error as Error).message).toMatch(/^(无法解析主机名|解析主机名超时)（no-such-host\.invalid）$/);
  });
});

describe('connectOutbound', () => {
  it('connects to a checked address itself, the next one when one does not connect', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const seen = new Promise<string>((resolve) =>
      server.once('connection', (s) => resolve(s.remoteAddress ?? '')),
    );
    try {
      const [target] = await resolveOutbound('127.0.0.1', admin, { timeoutMs: 1000 });
      // ::1 refuses (nothing listens there on this port), 127.0.0.1 answers.
      const unused = { host: '::1', address: '::1', family: 6 as const, kind: 'loopback' as const };
      const socket = await connectOutbound([unused, target as NonNullable<typeof target>], {
        port,
        timeoutMs: 1000,
      });
      expect(socket.remoteAddress).toBe('127.0.0.1');
      expect(await seen).toBe('127.0.0.1');
      socket.destroy();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
