/**
 * Real X.509 certificates for the demo's certificate deployments, built with node:crypto and a
 * small DER encoder: a demo CA and a leaf per deployment (ECDSA P-256, SHA-256, subjectAltName
 * with the domains). The private keys are thrown away — the demo stores no key — so these
 * certificates parse and show real fields but can never serve traffic.
 */
import {
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(value: Buffer): Buffer {
  // DER: the minimal encoding (no leading zero bytes), positive (a 0 byte before a high bit).
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const bytes = value.subarray(start);
  return tlv(0x02, (bytes[0] as number) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function utcTime(ms: number): Buffer {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function name(parts: { C?: string; O?: string; CN: string }): Buffer {
  const rdn = (id: string, value: string, printable = false) =>
    set(seq(oid(id), tlv(printable ? 0x13 : 0x0c, Buffer.from(value, 'utf8'))));
  return seq(
    ...(parts.C ? [rdn('2.5.4.6', parts.C, true)] : []),
    ...(parts.O ? [rdn('2.5.4.10', parts.O)] : []),
    rdn('2.5.4.3', parts.CN),
  );
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface IssuedCertificate {
  pem: string;
  cert: X509Certificate;
  key: KeyObject;
}

export function issueCertificate(options: {
  subject: { C?: string; O?: string; CN: string };
  issuer?: IssuedCertificate;
  notBefore: number;
  notAfter: number;
  sans?: readonly string[];
  ca?: boolean;
}): IssuedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const issuerName = options.issuer ? name(parseName(options.issuer.cert.subject)) : name(options.subject);
  const extensions: Buffer[] = [];
  if (options.sans?.length) {
    const names = seq(...options.sans.map((dns) => tlv(0x82, Buffer.from(dns, 'ascii'))));
    extensions.push(seq(oid('2.5.29.17'), tlv(0x04, names)));
  }
  if (options.ca) {
    // basicConstraints: critical, cA true.
    extensions.push(
      seq(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, seq(tlv(0x01, Buffer.from([0xff]))))),
    );
  }
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ECDSA_SHA256,
    issuerName,
    seq(utcTime(options.notBefore), utcTime(options.notAfter)),
    name(options.subject),
    spki,
    ...(extensions.length ? [tlv(0xa3, seq(...extensions))] : []),
  );
  const signature = sign('sha256', tbs, options.issuer?.key ?? privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  const pem = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
  return {
    pem,
    cert: new X509Certificate(pem),
    key: createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })),
  };
}

/** `C=CN\nO=…\nCN=…` (X509Certificate.subject) back into parts. */
function parseName(text: string): { C?: string; O?: string; CN: string } {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return { C: out.C, O: out.O, CN: out.CN ?? '' };
}
