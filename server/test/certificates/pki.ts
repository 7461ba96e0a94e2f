/**
 * Certificates made in the test with @peculiar/x509 over node's WebCrypto (ECDSA P-256: quick
 * to generate): a root CA, an intermediate, leaves with any names and validity, self-signed
 * ones; and real TLS servers on loopback presenting them.
 */
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;

export interface Issued {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  keyPem: string;
}

let serial = 1;
const nextSerial = () => (serial++).toString(16).padStart(4, '0');

async function keyPemOf(keys: CryptoKeyPair): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function makeCa(name: string, issuer?: Issued): Promise<Issued> {
  const keys = await generateKeys();
  const now = Date.now();
  const extensions = [
    new x509.BasicConstraintsExtension(true, issuer ? 0 : 1, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  const cert = issuer
    ? await x509.X509CertificateGenerator.create({
        serialNumber: nextSerial(),
        subject: `CN=${name}`,
        issuer: issuer.cert.subject,
        notBefore: new Date(now - DAY),
        notAfter: new Date(now + 3650 * DAY),
        signingAlgorithm: ALG,
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        extensions: [...extensions, await x509.AuthorityKeyIdentifierExtension.create(issuer.cert)],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber: nextSerial(),
        name: `CN=${name}`,
        notBefore: new Date(now - DAY),
        notAfter: new Date(now + 3650 * DAY),
        signingAlgorithm: ALG,
        keys,
        extensions,
      });
  return { cert, keys, pem: cert.toString('pem'), keyPem: await keyPemOf(keys) };
}

export interface LeafOptions {
  names?: string[];
  /** Validity relative to now, in days. */
  fromDays?: number;
  toDays?: number;
  /** Signed by this CA; self-signed when absent. */
  issuer?: Issued;
}

export async function makeLeaf(options: LeafOptions = {}): Promise<Issued> {
  const names = options.names ?? ['localhost', '127.0.0.1'];
  const keys = await generateKeys();
  const now = Date.now();
  const notBefore = new Date(now + (options.fromDays ?? -1) * DAY);
  const notAfter = new Date(now + (options.toDays ?? 90) * DAY);
  const extensions = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension(
      names.map((value) =>
        net.isIP(value) ? { type: 'ip' as const, value } : { type: 'dns' as const, value },
      ),
    ),
  ];
  const subject = `CN=${names[0]}`;
  const cert = options.issuer
    ? await x509.X509CertificateGenerator.create({
        serialNumber: nextSerial(),
        subject,
        issuer: options.issuer.cert.subject,
        notBefore,
        notAfter,
        signingAlgorithm: ALG,
        publicKey: keys.publicKey,
        signingKey: options.issuer.keys.privateKey,
        extensions: [...extensions, await x509.AuthorityKeyIdentifierExtension.create(options.issuer.cert)],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber: nextSerial(),
        name: subject,
        notBefore,
        notAfter,
        signingAlgorithm: ALG,
        keys,
        extensions,
      });
  return { cert, keys, pem: cert.toString('pem'), keyPem: await keyPemOf(keys) };
}

export interface TestServer {
  port: number;
  /** Connections accepted so far (the policy test: none). */
  connections: number;
  close(): Promise<void>;
}

function listen(server: net.Server, counter: { connections: number }): Promise<TestServer> {
  server.on('connection', () => {
    counter.connections += 1;
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      const handle: TestServer = {
        port,
        get connections() {
          return counter.connections;
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as net.Server & { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      };
      resolve(handle);
    });
  });
}

/** An implicit-TLS server presenting `leaf` followed by `chain` (intermediates). */
export function tlsServer(leaf: Issued, chain: Issued[] = []): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    { key: leaf.keyPem, cert: [leaf.pem, ...chain.map((c) => c.pem)].join('\n') },
    (socket) => socket.end(),
  );
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => undefined);
  const counter = { connections: 0 };
  return listen(server, counter).then((handle) => ({
    ...handle,
    get connections() {
      return counter.connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await handle.close();
    },
  }));
}

export type MailProtocol = 'smtp' | 'imap' | 'pop3';

/**
 * A tiny mail server that speaks just enough SMTP, IMAP or POP3 to agree to STARTTLS, then
 * presents `leaf` over TLS on the same connection. `refuse`: it does not offer STARTTLS.
 */
export function starttlsServer(protocol: MailProtocol, leaf: Issued, refuse = false): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const greeting = {
      smtp: '220 mail.test ESMTP\r\n',
      imap: '* OK IMAP4rev1 ready\r\n',
      pop3: '+OK POP3 ready\r\n',
    };
    socket.write(greeting[protocol]);
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const line = buffer.slice(0, at).trim();
        buffer = buffer.slice(at + 1);
        const upgrade = (answer: string) => {
          socket.off('data', onData);
          socket.write(answer);
          const secure = new tls.TLSSocket(socket, { isServer: true, key: leaf.keyPem, cert: leaf.pem });
          secure.on('error', () => undefined);
          secure.on('secure', () => secure.end());
        };
        if (protocol === 'smtp') {
          if (/^EHLO/i.test(line))
            socket.write(refuse ? '250-mail.test\r\n250 8BITMIME\r\n' : '250-mail.test\r\n250 STARTTLS\r\n');
          else if (/^STARTTLS/i.test(line)) {
            if (refuse) socket.write('502 5.5.1 not supported\r\n');
            else return upgrade('220 2.0.0 Ready to start TLS\r\n');
          }
        } else if (protocol === 'imap') {
          if (/^a1 STARTTLS/i.test(line)) {
            if (refuse) socket.write('a1 BAD unknown command\r\n');
            else return upgrade('* CAPABILITY IMAP4rev1\r\na1 OK Begin TLS negotiation now\r\n');
          }
        } else if (/^STLS/i.test(line)) {
          if (refuse) socket.write('-ERR not supported\r\n');
          else return upgrade('+OK Begin TLS\r\n');
        }
      }
    };
    socket.on('data', onData);
  });
  const counter = { connections: 0 };
  return listen(server, counter).then((handle) => ({
    ...handle,
    get connections() {
      return counter.connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await handle.close();
    },
  }));
}

/** A TCP server that accepts and never answers (a handshake that times out). */
export function silentServer(): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  const counter = { connections: 0 };
  return listen(server, counter).then((handle) => ({
    ...handle,
    get connections() {
      return counter.connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await handle.close();
    },
  }));
}

/** A port nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
