/**
 * /tool/google_code (动态口令): paste a Base32 secret or an otpauth:// URI and see the current
 * code, a countdown to the next step and the next code; or create a new secret with its QR code.
 * Everything is computed in this page (totp.ts, qrcode): no request ever carries a secret.
 */
import { CopyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import {
  codesAt,
  groupDigits,
  newSecret,
  otpauthUri,
  parseTotpInput,
  TOTP_DEFAULTS,
  type TotpConfig,
} from '@wanxiang/core';
import QRCode from 'qrcode';
import { useEffect, useId, useState } from 'react';
import { useCopy } from './copy';
import './tools.css';

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function Countdown({ remainingMs, period }: { remainingMs: number; period: number }) {
  const r = 30;
  const circumference = 2 * Math.PI * r;
  const fraction = remainingMs / (period * 1000);
  const seconds = Math.ceil(remainingMs / 1000);
  return (
    <div
      className={seconds <= 5 ? 'wx-ring wx-ring-warn' : 'wx-ring'}
      role="timer"
      aria-label={`${seconds} 秒后更新`}
    >
      <svg viewBox="0 0 72 72" aria-hidden>
        <circle className="wx-ring-track" cx="36" cy="36" r={r} />
        <circle
          className="wx-ring-bar"
          cx="36"
          cy="36"
          r={r}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - fraction)}
        />
      </svg>
      <span className="wx-ring-text" aria-hidden>
        <span data-testid="seconds-left">{seconds}</span>
        <small>秒</small>
      </span>
    </div>
  );
}

function CodeView({
  config,
  fromUri,
  copy,
}: {
  config: TotpConfig;
  fromUri: boolean;
  copy: (t: string, w?: string) => void;
}) {
  const now = useNow(250);
  const { current, next, remainingMs } = codesAt(config, now);
  return (
    <>
      <div className="wx-otp-display">
        <Countdown remainingMs={remainingMs} period={config.period} />
        <div className="wx-otp-codes">
          <button
            type="button"
            className="wx-code-button"
            data-testid="current-code"
            data-code={current}
            aria-label={`当前验证码 ${current}，点击复制`}
            onClick={() => copy(current, '验证码')}
          >
            {groupDigits(current)}
          </button>
          <div className="wx-code-next">
            下一个：<code data-testid="next-code">{groupDigits(next)}</code>
          </div>
        </div>
      </div>
      <ul className="wx-meta" aria-label="口令参数">
        <li>
          算法 <b>{config.algorithm}</b>
        </li>
        <li>
          位数 <b>{config.digits}</b>
        </li>
        <li>
          周期 <b>{config.period} 秒</b>
        </li>
        {fromUri && config.issuer && (
          <li>
            发行方 <b>{config.issuer}</b>
          </li>
        )}
        {fromUri && config.account && (
          <li>
            账号 <b>{config.account}</b>
          </li>
        )}
      </ul>
    </>
  );
}

interface Generated {
  secret: string;
  uri: string;
  qr: string;
}

export default function GoogleCode() {
  const inputId = useId();
  const [input, setInput] = useState('');
  const [issuer, setIssuer] = useState('万象');
  const [account, setAccount] = useState('');
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [qrError, setQrError] = useState(false);
  const { copy, holder } = useCopy();
  const parsed = input.trim() === '' ? null : parseTotpInput(input);

  const generate = async () => {
    const secret = newSecret();
    const uri = otpauthUri({ secret, ...TOTP_DEFAULTS, issuer, account });
    try {
      const qr = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 320 });
      setQrError(false);
      setGenerated({ secret, uri, qr });
    } catch {
      setQrError(true);
    }
  };

  // Issuer and account are part of the URI and the QR: keep them in step once a secret exists.
  useEffect(() => {
    if (!generated) return;
    const uri = otpauthUri({ secret: generated.secret, ...TOTP_DEFAULTS, issuer, account });
    if (uri === generated.uri) return;
    let live = true;
    void QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 320 }).then((qr) => {
      if (live) setGenerated({ secret: generated.secret, uri, qr });
    });
    return () => {
      live = false;
    };
  }, [issuer, account, generated]);

  return (
    <section className="wx-public-screen wx-tool">
      {holder}
      <header className="wx-tool-head">
        <h1 className="wx-public-screen-title">动态口令</h1>
        <p className="wx-tool-lead">
          兼容 Google Authenticator 等验证器的基于时间的一次性密码（TOTP，RFC 6238）。
        </p>
      </header>
      <p className="wx-privacy">
        <SafetyCertificateOutlined className="wx-privacy-icon" aria-hidden />
        <span>密钥只在你的浏览器里计算，不会发送到服务器，也不会被保存。关闭页面即清除。</span>
      </p>

      <div className="wx-otp-grid">
        <div className="wx-card">
          <h2 className="wx-card-title">查看验证码</h2>
          <label htmlFor={inputId} className="wx-field-label">
            Base32 密钥或 otpauth:// 链接
          </label>
          <textarea
            id={inputId}
            className={parsed && !parsed.ok ? 'wx-textarea wx-input-error' : 'wx-textarea'}
            value={input}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            placeholder="例如 JBSWY3DPEHPK3PXP 或 otpauth://totp/万象:alice?secret=…&issuer=万象"
            aria-invalid={parsed ? !parsed.ok : undefined}
            aria-describedby={`${inputId}-msg`}
            onChange={(e) => setInput(e.target.value)}
          />
          {parsed && !parsed.ok ? (
            <p id={`${inputId}-msg`} className="wx-tool-field-error" role="alert">
              {parsed.error}
            </p>
          ) : (
            <p id={`${inputId}-msg`} className="wx-field-hint">
              空格、小写和末尾的 = 都可以；链接中的位数、周期和算法会一并读取。
            </p>
          )}
          {parsed?.ok ? (
            <CodeView config={parsed.config} fromUri={parsed.fromUri} copy={copy} />
          ) : (
            <div className="wx-empty-hint">粘贴密钥后，这里显示当前验证码和倒计时</div>
          )}
        </div>

        <div className="wx-card">
          <h2 className="wx-card-title">生成新密钥</h2>
          <div className="wx-form-row">
            <div>
              <label htmlFor={`${inputId}-issuer`} className="wx-field-label">
                发行方
              </label>
              <input
                id={`${inputId}-issuer`}
                className="wx-input"
                value={issuer}
                maxLength={40}
                placeholder="如 万象"
                onChange={(e) => setIssuer(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor={`${inputId}-account`} className="wx-field-label">
                账号
              </label>
              <input
                id={`${inputId}-account`}
                className="wx-input"
                value={account}
                maxLength={60}
                placeholder="如 alice@example.com"
                onChange={(e) => setAccount(e.target.value)}
              />
            </div>
          </div>
          <button type="button" className="wx-button wx-button-primary" onClick={() => void generate()}>
            生成新密钥
          </button>
          {qrError && (
            <p className="wx-tool-field-error" role="alert">
              二维码生成失败，请重试
            </p>
          )}
          {generated && (
            <div className="wx-secret-result">
              <img
                className="wx-tool-qr"
                src={generated.qr}
                alt="用验证器扫描此二维码添加账号"
                data-testid="qr"
              />
              <div className="wx-secret-fields">
                <div>
                  <span className="wx-field-label">密钥（Base32）</span>
                  <button
                    type="button"
                    className="wx-copy-value"
                    data-testid="new-secret"
                    aria-label="复制密钥"
                    onClick={() => void copy(generated.secret, '密钥')}
                  >
                    <code>{generated.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
                    <CopyOutlined aria-hidden />
                  </button>
                </div>
                <div>
                  <span className="wx-field-label">otpauth 链接</span>
                  <button
                    type="button"
                    className="wx-copy-value"
                    data-testid="new-uri"
                    aria-label="复制 otpauth 链接"
                    onClick={() => void copy(generated.uri, '链接')}
                  >
                    <code>{generated.uri}</code>
                    <CopyOutlined aria-hidden />
                  </button>
                </div>
                <div>
                  <button type="button" className="wx-button" onClick={() => setInput(generated.uri)}>
                    用这个密钥查看验证码
                  </button>
                </div>
              </div>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
