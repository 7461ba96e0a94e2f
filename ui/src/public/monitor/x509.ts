/**
 * Certificates in the browser with @peculiar/x509 (loaded with the tabs that need it, never with
 * the page): decode pasted PEM certificates, and make a key pair plus a CSR with WebCrypto. The
 * private key is made and exported here and only shown to the user: nothing here sends anything.
 */
import {
  cryptoProvider,
  PemConverter,
  Pkcs10CertificateRequestGenerator,
  SubjectAlternativeNameExtension,
  X509Certificate,
} from './x509-lib';

export interface DecodedCertificate {
  subject: string;
  issuer: string;
  sans: string[];
  notBefore: Date;
  notAfter: Date;
  /** Whole days from now to notAfter (negative once expired). */
  daysLeft: number;
  serialNumber: string;
  keyType: string;
  keySize: number | null;
  fingerprint256: string;
  selfSigned: boolean;
}

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const DAY_MS = 86_400_000;

/** A Chinese sentence a visitor can act on. */
export class PemError extends Error {}

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');

const CURVE_BITS: Record<string, number> = { 'P-256': 256, 'P-384': 384, 'P-521': 521 };

function keyOf(cert: X509Certificate): { keyType: string; keySize: number | null } {
  const algorithm = cert.publicKey.algorithm as Algorithm & {
    modulusLength?: number;
    namedCurve?: string;
  };
  if (algorithm.name.startsWith('RSA')) return { keyType: 'RSA', keySize: algorithm.modulusLength ?? null };
  if (algorithm.name === 'ECDSA' || algorithm.name === 'ECDH')
    return {
      keyType: `EC${algorithm.namedCurve ? ` ${algorithm.namedCurve}` : ''}`,
      keySize: algorithm.namedCurve ? (CURVE_BITS[algorithm.namedCurve] ?? null) : null,
    };
  return { keyType: algorithm.name, keySize: null };
}

function sansOf(cert: X509Certificate): string[] {
  const extension = cert.getExtension(SubjectAlternativeNameExtension);
  if (!extension) return [];
  return extension.names.toJSON().map((name) => `${name.type.toUpperCase()}:${name.value}`);
}

/** Every certificate of the pasted text, in order (a leaf and its chain may be pasted together). */
export async function decodePem(text: string, now = Date.now()): Promise<DecodedCertificate[]> {
  const blocks = text.match(CERT_BLOCK);
  if (!blocks) {
    if (/BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY/.test(text))
      throw new PemError(
        '这是私钥，不是证书：请粘贴以 -----BEGIN CERTIFICATE----- 开头的证书（不要把私钥粘贴到任何网页）',
      );
    throw new PemError(
      '未找到证书：请粘贴以 -----BEGIN CERTIFICATE----- 开头、-----END CERTIFICATE----- 结尾的 PEM',
    );
  }
  return Promise.all(
    blocks.map(async (block, index) => {
      let cert: X509Certificate;
      try {
        cert = new X509Certificate(block);
      } catch {
        throw new PemError(`第 ${index + 1} 张证书无法解析：内容不完整或不是 X.509 证书`);
      }
      return {
        subject: cert.subject,
        issuer: cert.issuer,
        sans: sansOf(cert),
        notBefore: cert.notBefore,
        notAfter: cert.notAfter,
        daysLeft: Math.floor((cert.notAfter.getTime() - now) / DAY_MS),
        serialNumber: cert.serialNumber,
        ...keyOf(cert),
        fingerprint256: hex(await cert.getThumbprint('SHA-256')),
        selfSigned: cert.subject === cert.issuer,
      };
    }),
  );
}

export type CsrKeyType = 'RSA-2048' | 'ECDSA-P256';

export interface CsrInput {
  keyType: CsrKeyType;
  commonName: string;
  sans: string[];
  organization?: string;
  country?: string;
}

export interface CsrOutput {
  privateKeyPem: string;
  csrPem: string;
}

const ALGORITHMS: Record<
  CsrKeyType,
  { key: RsaHashedKeyGenParams | EcKeyGenParams; sign: Algorithm | EcdsaParams }
> = {
  'RSA-2048': {
    key: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
  },
  'ECDSA-P256': {
    key: { name: 'ECDSA', namedCurve: 'P-256' },
    sign: { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams,
  },
};

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A new key pair (WebCrypto) and its PKCS#10 request for the names given. */
export async function generateCsr(input: CsrInput): Promise<CsrOutput> {
  const { key, sign } = ALGORITHMS[input.keyType];
  // The library's provider: the page's WebCrypto (tests may set another).
  const webCrypto = cryptoProvider.get();
  const keys = (await webCrypto.subtle.generateKey(key, true, ['sign', 'verify'])) as CryptoKeyPair;
  const name: Record<string, string[]>[] = [{ CN: [input.commonName] }];
  if (input.organization) name.push({ O: [input.organization] });
  if (input.country) name.push({ C: [input.country] });
  const names = [...new Set([input.commonName, ...input.sans])].map((value) => ({
    type: IPV4.test(value) ? ('ip' as const) : ('dns' as const),
    value,
  }));
  const csr = await Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: sign,
    extensions: [new SubjectAlternativeNameExtension(names)],
  });
  const pkcs8 = await webCrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { privateKeyPem: PemConverter.encode(pkcs8, 'PRIVATE KEY'), csrPem: csr.toString('pem') };
}
