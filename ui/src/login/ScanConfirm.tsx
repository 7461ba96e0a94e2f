/**
 * /scan_login/confirm/:ticket — opened from the QR code on a phone (or in another browser). It
 * needs a signed-in user, but never redirects to /scan_login (on a phone that would show yet
 * another QR code): signed out, it shows the password form in place and carries on after it.
 * Signed in, it reports the scan, shows who is asking (address, browser, time) and offers
 * 确认登录 / 取消.
 */
import {
  CheckCircleFilled,
  CloseCircleFilled,
  DesktopOutlined,
  ExclamationCircleFilled,
} from '@ant-design/icons';
import {
  createQrLoginApi,
  describeFailure,
  formatDateTime,
  type LoginOutput,
  type QrScanInfo,
} from '@wanxiang/core';
import { Button } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { rememberedPublicPath } from '../platform/public-path';
import { Loading } from '../screens/Loading';
import { useServices, useSession } from '../session/services-context';
import { AuthPage } from './AuthPage';
import { LoginForm } from './LoginForm';
import { describeUserAgent } from './user-agent';
import './qr-login.css';

type Step =
  | { kind: 'scanning' }
  | { kind: 'asking'; info: QrScanInfo; busy: 'confirm' | 'cancel' | null }
  | { kind: 'done'; outcome: 'confirmed' | 'cancelled' }
  | { kind: 'failed'; message: string };

function Outcome({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="wx-confirm-outcome">
      <span className="wx-confirm-outcome-icon">{icon}</span>
      <h1 className="wx-auth-title">{title}</h1>
      <p className="wx-confirm-text">{children}</p>
    </div>
  );
}

export default function ScanConfirm() {
  const { ticket = '' } = useParams();
  const { session, http, storage } = useServices();
  const signedIn = useSession((s) => s.matches('signedIn'));
  const user = useSession((s) => s.context.user);
  const api = useMemo(() => createQrLoginApi(http), [http]);
  const [step, setStep] = useState<Step>({ kind: 'scanning' });
  const userId = user?.id ?? null;

  // Once signed in and known: tell the waiting side its code was scanned, and learn who asks.
  useEffect(() => {
    if (userId === null) return;
    let live = true;
    setStep({ kind: 'scanning' });
    api
      .scan(ticket)
      .then((info) => live && setStep({ kind: 'asking', info, busy: null }))
      .catch((error) => live && setStep({ kind: 'failed', message: describeFailure(error).message }));
    return () => {
      live = false;
    };
  }, [api, ticket, userId]);

  const decide = (action: 'confirm' | 'cancel') => {
    if (step.kind !== 'asking' || step.busy) return;
    setStep({ ...step, busy: action });
    api[action](ticket)
      .then(() => setStep({ kind: 'done', outcome: action === 'confirm' ? 'confirmed' : 'cancelled' }))
      .catch((error) => setStep({ kind: 'failed', message: describeFailure(error).message }));
  };

  const back = (
    <Link className="wx-auth-back" to={rememberedPublicPath(storage)}>
      ← 返回网站
    </Link>
  );

  if (!signedIn) {
    return (
      <AuthPage subtitle="扫码登录确认" footer={back}>
        <h1 className="wx-auth-title">登录后确认</h1>
        <p className="wx-confirm-text wx-confirm-lead">
          另一台设备正在请求登录。
          <br />
          请先登录你的账号，再确认是否允许。
        </p>
        <LoginForm onSignedIn={(result: LoginOutput) => session.send({ type: 'SIGNED_IN', ...result })} />
      </AuthPage>
    );
  }
  if (userId === null || step.kind === 'scanning') return <Loading />;

  return (
    <AuthPage subtitle="扫码登录确认" footer={back}>
      {step.kind === 'asking' && (
        <div className="wx-confirm">
          <span className="wx-confirm-device" aria-hidden="true">
            <DesktopOutlined />
          </span>
          <h1 className="wx-auth-title">确认登录</h1>
          <p className="wx-confirm-text">有设备正在请求登录你的账号</p>
          <dl className="wx-confirm-details">
            <div>
              <dt>账号</dt>
              <dd data-field="account">
                {user?.nickname ? `${user.nickname}（${user.username}）` : user?.username}
              </dd>
            </div>
            <div>
              <dt>设备</dt>
              <dd data-field="device">{describeUserAgent(step.info.client.userAgent)}</dd>
            </div>
            <div>
              <dt>IP 地址</dt>
              <dd data-field="ip">{step.info.client.ip ?? '未知'}</dd>
            </div>
            <div>
              <dt>请求时间</dt>
              <dd data-field="time">{formatDateTime(step.info.client.requestedAt)}</dd>
            </div>
          </dl>
          <p className="wx-confirm-warning">如果不是你本人操作，请点击「取消」。</p>
          <div className="wx-confirm-actions">
            <Button
              type="primary"
              size="large"
              block
              loading={step.busy === 'confirm'}
              disabled={step.busy === 'cancel'}
              onClick={() => decide('confirm')}
            >
              确认登录
            </Button>
            <Button
              size="large"
              block
              loading={step.busy === 'cancel'}
              disabled={step.busy === 'confirm'}
              onClick={() => decide('cancel')}
            >
              取消
            </Button>
          </div>
        </div>
      )}
      {step.kind === 'done' && step.outcome === 'confirmed' && (
        <Outcome icon={<CheckCircleFilled className="wx-qr-ok" />} title="已确认登录">
          请回到原设备继续操作，本页面可以关闭。
        </Outcome>
      )}
      {step.kind === 'done' && step.outcome === 'cancelled' && (
        <Outcome icon={<CloseCircleFilled className="wx-qr-muted" />} title="已取消登录">
          对方设备不会登录你的账号，本页面可以关闭。
        </Outcome>
      )}
      {step.kind === 'failed' && (
        <Outcome icon={<ExclamationCircleFilled className="wx-qr-warn" />} title="无法完成扫码登录">
          {step.message}
        </Outcome>
      )}
    </AuthPage>
  );
}
