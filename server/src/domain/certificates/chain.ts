/**
 * A handshake's certificates as the check reports them: node's `getPeerCertificate(true)` walked
 * from the leaf up (`issuerCertificate` until the root points at itself), each read with
 * node:crypto's X509Certificate (subject, issuer, SANs, validity, SHA-256 fingerprint, key).
 */
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import type { CertificateChainEntry } from '@wanxiang/core';

/** A chain longer than this is not walked further (a loop, or a server sending junk). */
const MAX_CHAIN = 10;

/** `CN=a\nO=b` (node's multi-line form) → `CN=a, O=b`. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

/** `DNS:a.test, IP Address:127.0.0.1` → `['a.test', '127.0.0.1']`. */
export function sansOf(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName
    .split(/,\s*/)
    .map((entry) => entry.replace(/^(DNS|IP Address|email|URI):/, '').trim())
    .filter(Boolean);
}

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  'P-256': 256,
  secp384r1: 384,
  'P-384': 384,
  secp521r1: 521,
  'P-521': 521,
};

/** The key's type (`RSA`, `EC`, `Ed25519`) and size in bits. */
function keyOf(cert: X509Certificate): { keyType: string | null; keySize: number | null } {
  const key = cert.publicKey;
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  switch (type) {
    case 'rsa':
    case 'rsa-pss':
      return { keyType: 'RSA', keySize: details.modulusLength ?? null };
    case 'ec':
      return { keyType: 'EC', keySize: CURVE_BITS[details.namedCurve ?? ''] ?? null };
    case 'ed25519':
      return { keyType: 'Ed25519', keySize: 256 };
    case 'ed448':
      return { keyType: 'Ed448', keySize: 456 };
    default:
      return { keyType: type ?? null, keySize: null };
  }
}

/** A certificate whose issuer is itself and which its own key verifies. */
function isSelfSigned(cert: X509Certificate): boolean {
  if (cert.subject !== cert.issuer) return false;
  try {
    return cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

export function chainEntryOf(cert: X509Certificate): CertificateChainEntry {
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    sans: sansOf(cert.subjectAltName),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    fingerprint256: cert.fingerprint256,
    serialNumber: cert.serialNumber,
    ...keyOf(cert),
    selfSigned: isSelfSigned(cert),
  };
}

/** The peer's chain, leaf first, each certificate once. */
export function chainOf(
  peer: DetailedPeerCertificate,
): { entries: CertificateChainEntry[]; leaf: X509Certificate } | null {
  if (!peer?.raw) return null;
  const certs: X509Certificate[] = [];
  const seen = new Set<string>();
  let current: DetailedPeerCertificate | undefined = peer;
  while (current?.raw && certs.length < MAX_CHAIN) {
    const cert = new X509Certificate(current.raw);
    if (seen.has(cert.fingerprint256)) break;
    seen.add(cert.fingerprint256);
    certs.push(cert);
    current = current.issuerCertificate;
  }
  const [leaf] = certs;
  if (!leaf) return null;
  return { entries: certs.map(chainEntryOf), leaf };
}

/** The key as the job row keeps it: `RSA 2048`, `EC 256`. */
export function keyLabel(entry: CertificateChainEntry): string | null {
  if (!entry.keyType) return null;
  return entry.keySize ? `${entry.keyType} ${entry.keySize}` : entry.keyType;
}
