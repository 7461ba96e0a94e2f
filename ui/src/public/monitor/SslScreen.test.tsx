/**
 * /ssl in the real app against msw: 检测证书 sends host/port/STARTTLS and shows the verdict with its
 * Chinese reason and the chain; 解析证书 decodes a certificate made in the test, and says in Chinese
 * what is wrong with bad input; 生成 CSR makes a key and a CSR whose names are those asked — and no
 * request carries the private key; 证书监控 lists, adds and shows no figure for an unchecked watch.
 */

import { fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, renderApp, server, signedInAs, USERS } from '../../test/harness';
import { realmSafeCrypto } from './realm-safe-crypto';
import {
  cryptoProvider,
  Pkcs10CertificateRequest,
  SubjectAlternativeNameExtension,
  X509CertificateGenerator,
} from './x509-lib';

const USER = USERS.guest;
const bodies: string[] = [];

const webcrypto = realmSafeCrypto();

beforeAll(async () => {
  // Node's WebCrypto under jsdom (see realm-safe-crypto.ts); a browser uses its own.
  cryptoProvider.set(webcrypto);
  server.listen({ onUnhandledRequest: 'error' });
  // Every request body the page sends, to show the private key is never among them.
  server.events.on('request:start', async ({ request }) => {
    bodies.push(`${request.url} ${await request.clone().text()}`);
  });
  await Promise.all([
    import('../PublicLayout'),
    import('./SslScreen'),
    import('./PemTab'),
    import('./CsrTab'),
  ]);
}, 60_000);
beforeEach(() => {
  bodies.length = 0;
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CHECK = {
  verdict: 'untrusted',
  reason: '自签名证书：证书不是由受信任的机构签发的',
  daysLeft: 89,
  host: 'self.example.com',
  port: 8443,
  checkedAt: '2026-11-26T08:00:00.000Z',
  chain: [
    {
      subject: 'CN=self.example.com',
      issuer: 'CN=self.example.com',
      sans: ['DNS:self.example.com'],
      notBefore: '2026-11-01T00:00:00.000Z',
      notAfter: '2027-02-23T00:00:00.000Z',
      fingerprint256: 'AB:CD:EF',
      serialNumber: '01',
      keyType: 'EC',
      keySize: 256,
      selfSigned: true,
    },
  ],
};

async function selfSignedPem(): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '0a1b',
      name: 'CN=decode.example.com, O=万象测试',
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 30.5 * 86_400_000),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new SubjectAlternativeNameExtension([
          { type: 'dns', value: 'decode.example.com' },
          { type: 'dns', value: 'www.decode.example.com' },
        ]),
      ],
    },
    webcrypto,
  );
  return cert.toString('pem');
}

describe('/ssl', { timeout: 30_000 }, () => {
  it('检测证书 sends host, port and STARTTLS and shows the verdict, its reason and the chain', async () => {
    signedInAs(USER);
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/api/me/ssl/check`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ success: true, data: CHECK });
      }),
    );
    renderApp('/ssl');
    fireEvent.change(await screen.findByLabelText('主机'), { target: { value: 'self.example.com:8443' } });
    fireEvent.click(screen.getByRole('button', { name: /检\s?测/ }));
    expect(await screen.findByText('不受信任 · 剩余 89 天')).toBeTruthy();
    expect(screen.getByText(CHECK.reason)).toBeTruthy();
    expect(sent).toEqual([{ host: 'self.example.com', port: 8443, starttls: 'none' }]);
    const chain = within(screen.getByTestId('chain'));
    expect(chain.getByText('自签名证书')).toBeTruthy();
    expect(chain.getByText('DNS:self.example.com')).toBeTruthy();
    expect(chain.getByText('EC 256 位')).toBeTruthy();
  });

  it('解析证书 reads a pasted PEM in the page; bad input gets a Chinese reason', async () => {
    signedInAs(USER);
    const pem = await selfSignedPem();
    renderApp('/ssl?tab=decode');
    const box = await screen.findByLabelText('PEM 证书');
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: /解\s?析/ }));
    expect(await screen.findByText(/未找到证书：请粘贴以 -----BEGIN CERTIFICATE----- 开头/)).toBeTruthy();
    fireEvent.change(box, {
      target: { value: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
    });
    fireEvent.click(screen.getByRole('button', { name: /解\s?析/ }));
    expect(await screen.findByText('第 1 张证书无法解析：内容不完整或不是 X.509 证书')).toBeTruthy();
    fireEvent.change(box, { target: { value: pem } });
    fireEvent.click(screen.getByRole('button', { name: /解\s?析/ }));
    const chain = within(await screen.findByTestId('chain'));
    expect(chain.getByText('DNS:decode.example.com，DNS:www.decode.example.com')).toBeTruthy();
    expect(chain.getByText('EC P-256 256 位')).toBeTruthy();
    expect(chain.getByText(/（剩余 30 天）/)).toBeTruthy();
    expect(chain.getAllByText(/CN=decode.example.com/).length).toBeGreaterThan(0);
    // Decoding asked nothing of the server.
    expect(bodies.filter((b) => b.includes('/api/me/ssl'))).toEqual([]);
  });

  it('生成 CSR makes the key and the request in the page; no request carries the key', async () => {
    signedInAs(USER);
    renderApp('/ssl?tab=csr');
    fireEvent.change(await screen.findByLabelText('通用名称（CN）'), {
      target: { value: 'shop.example.com' },
    });
    fireEvent.change(screen.getByLabelText('组织（O）'), { target: { value: '万象' } });
    fireEvent.change(screen.getByLabelText('国家（C）'), { target: { value: 'cn' } });
    fireEvent.click(screen.getByRole('button', { name: '生成密钥和 CSR' }));
    const key = (await screen.findByLabelText('私钥（PEM）', {}, { timeout: 15_000 })) as HTMLTextAreaElement;
    const csrPem = (screen.getByLabelText('CSR（PEM）') as HTMLTextAreaElement).value;
    expect(key.value).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const csr = new Pkcs10CertificateRequest(csrPem);
    expect(csr.subject).toBe('CN=shop.example.com, O=万象, C=CN');
    // The subjectAltName extension (2.5.29.17) of the request's extensionRequest attribute.
    const sans = csr.getExtension('2.5.29.17') as SubjectAlternativeNameExtension | null;
    expect(sans?.names.toJSON()).toEqual([{ type: 'dns', value: 'shop.example.com' }]);
    expect(await csr.verify(webcrypto)).toBe(true);
    expect(screen.getByText('私钥只在本页生成和显示，不会发送到服务器')).toBeTruthy();
    const keyBody = key.value.split('\n')[1] as string;
    expect(bodies.some((b) => b.includes(keyBody))).toBe(false);
  });

  it('证书监控 lists own watches, adds one, and shows no figure for a watch never checked', async () => {
    signedInAs(USER);
    const posted: unknown[] = [];
    const watch = (id: number, extra: Record<string, unknown> = {}) => ({
      id,
      host: `w${id}.example.com`,
      port: 443,
      starttls: 'none',
      notifyDays: [7, 14, 21],
      status: 'ok',
      verdict: 'ok',
      daysLeft: 40,
      notAfter: '2027-01-05T00:00:00.000Z',
      lastCheckAt: '2026-11-26T08:00:00.000Z',
      ...extra,
    });
    server.use(
      http.get(`${API}/api/me/ssl`, () =>
        HttpResponse.json({ success: true, data: { results: [watch(1)] } }),
      ),
      http.post(`${API}/api/me/ssl`, async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({
          success: true,
          data: watch(2, {
            host: 'mail.example.com',
            port: 25,
            starttls: 'smtp',
            status: 'pending',
            verdict: null,
            daysLeft: 0,
            notAfter: null,
            lastCheckAt: null,
          }),
        });
      }),
    );
    renderApp('/ssl?tab=watch');
    expect(await screen.findByText('w1.example.com:443')).toBeTruthy();
    expect(screen.getByText('40 天')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('域名'), { target: { value: 'mail.example.com' } });
    fireEvent.change(screen.getByLabelText('端口'), { target: { value: '25' } });
    fireEvent.mouseDown(screen.getByLabelText('STARTTLS'));
    fireEvent.click(await screen.findByTitle('SMTP'));
    fireEvent.change(screen.getByLabelText('提前提醒（天）'), { target: { value: '30，7' } });
    fireEvent.click(screen.getByRole('button', { name: /添加监控/ }));
    const row = (await screen.findByText('mail.example.com:25')).closest('tr') as HTMLElement;
    expect(posted).toEqual([{ host: 'mail.example.com', port: 25, starttls: 'smtp', notifyDays: [7, 30] }]);
    expect(within(row).getByText('待检测')).toBeTruthy();
    expect(within(row).queryByText('0 天')).toBeNull();
  });
});
