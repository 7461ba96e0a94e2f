import type { LoginOutput } from '@wanxiang/core';
import { type KeyboardEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { rememberedPublicPath } from '../platform/public-path';
import { useServices } from '../session/services-context';
import { AuthPage } from './AuthPage';
import { LoginForm } from './LoginForm';
import { QrLoginPanel } from './QrLoginPanel';
import './qr-login.css';

type Tab = 'qr' | 'password';
const TABS: ReadonlyArray<{ key: Tab; label: string }> = [
  { key: 'qr', label: '扫码登录' },
  { key: 'password', label: '密码登录' },
];

/**
 * /scan_login: 扫码登录 (default) or 密码登录. Either way the result goes to the one session actor
 * (SIGNED_IN) and the visitor returns to the remembered public page. A tab is mounted only while
 * shown, so the QR side stops asking the server once the password tab is chosen.
 */
export default function ScanLogin() {
  const { session, storage } = useServices();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('qr');
  const ids = useId();
  const signIn = (result: LoginOutput) => {
    session.send({ type: 'SIGNED_IN', ...result });
    navigate(rememberedPublicPath(storage), { replace: true });
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next: Tab = tab === 'qr' ? 'password' : 'qr';
    setTab(next);
    document.getElementById(`${ids}-${next}-tab`)?.focus();
  };
  return (
    <AuthPage
      subtitle="欢迎回来"
      footer={
        <Link className="wx-auth-back" to={rememberedPublicPath(storage)}>
          ← 返回网站
        </Link>
      }
    >
      <h1 className="wx-visually-hidden">登录</h1>
      <div className="wx-login-tabs" role="tablist" aria-label="登录方式" onKeyDown={onKey}>
        {TABS.map(({ key, label }) => (
          <button
            key={key}
            id={`${ids}-${key}-tab`}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={`${ids}-${key}-panel`}
            tabIndex={tab === key ? 0 : -1}
            className={tab === key ? 'wx-login-tab wx-login-tab-active' : 'wx-login-tab'}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${ids}-${tab}-panel`} aria-labelledby={`${ids}-${tab}-tab`}>
        {tab === 'qr' ? <QrLoginPanel onSignedIn={signIn} /> : <LoginForm onSignedIn={signIn} />}
      </div>
    </AuthPage>
  );
}
