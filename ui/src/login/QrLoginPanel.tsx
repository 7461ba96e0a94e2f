/**
 * The 扫码登录 tab of /scan_login: core's qrLoginMachine drawn as a QR code of the confirm URL with
 * a countdown. Scanned, expired (刷新), cancelled (重新获取) and failed show over the code; on
 * confirmation the output goes to `onSignedIn`, exactly like the password form's.
 */
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  ReloadOutlined,
} from '@ant-design/icons';
import type { QrLoginOutput } from '@wanxiang/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'antd';
import QRCode from 'qrcode';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useServices } from '../session/services-context';
import { browserQrLoginMachine } from './qr-machine';

type View = 'loading' | 'pending' | 'scanned' | 'expired' | 'cancelled' | 'failed' | 'done';

function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function useQrImage(text: string | null): string | null {
  const [image, setImage] = useState<{ text: string; src: string } | null>(null);
  useEffect(() => {
    if (!text) return;
    let live = true;
    QRCode.toString(text, { type: 'svg', margin: 0, errorCorrectionLevel: 'M', color: { dark: '#1f1f1f' } })
      .then((svg) => {
        if (live) setImage({ text, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  // Never the previous ticket's code under the new ticket's state.
  return image && image.text === text ? image.src : null;
}

function Overlay({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="wx-qr-overlay">
      <span className="wx-qr-overlay-icon">{icon}</span>
      <strong>{title}</strong>
      {children}
    </div>
  );
}

export function QrLoginPanel({ onSignedIn }: { onSignedIn: (result: QrLoginOutput) => void }) {
  const { http, notices } = useServices();
  const [machine] = useState(() => browserQrLoginMachine(http, window.location.origin));
  const qr = useActorRef(machine, { input: {} });
  const view = useSelector(qr, (s): View => {
    if (s.status === 'done' || s.matches('claiming')) return 'done';
    if (s.matches({ waiting: { progress: 'scanned' } })) return 'scanned';
    if (s.matches('waiting')) return 'pending';
    if (s.matches('expired') || s.matches('cancelled') || s.matches('failed')) return s.value as View;
    return 'loading';
  });
  const confirmUrl = useSelector(qr, (s) => s.context.ticket?.confirmUrl ?? null);
  const remainingMs = useSelector(qr, (s) => s.context.remainingMs);
  const failure = useSelector(qr, (s) => s.context.failure);
  const image = useQrImage(confirmUrl);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  useEffect(() => {
    const notify = qr.on('notify', ({ level, message }) => notices.notify(level, message));
    const done = qr.subscribe((snapshot) => {
      if (snapshot.status === 'done') signedIn.current(snapshot.output);
    });
    return () => {
      notify.unsubscribe();
      done.unsubscribe();
    };
  }, [qr, notices]);

  const refresh = (label: string) => (
    <Button type="primary" icon={<ReloadOutlined />} onClick={() => qr.send({ type: 'REFRESH' })}>
      {label}
    </Button>
  );

  const live = view === 'pending' || view === 'scanned';
  const copy = () => {
    if (!confirmUrl) return;
    navigator.clipboard
      ?.writeText(confirmUrl)
      .then(() => notices.notify('success', '链接已复制，请在已登录的浏览器中打开'))
      .catch(() => notices.notify('error', '复制失败，请直接扫描二维码'));
  };

  return (
    <div className="wx-qr" data-state={view} data-confirm-url={confirmUrl ?? undefined}>
      <div className={view === 'pending' ? 'wx-qr-frame' : 'wx-qr-frame wx-qr-frame-dim'}>
        {image && view !== 'loading' && view !== 'failed' ? (
          <img className="wx-qr-image" src={image} alt="登录二维码" width={200} height={200} />
        ) : (
          <div className="wx-qr-placeholder" aria-hidden="true" />
        )}
        {view === 'loading' && <Overlay icon={<span className="wx-qr-spinner" />} title="正在获取二维码…" />}
        {view === 'scanned' && <Overlay icon={<CheckCircleFilled className="wx-qr-ok" />} title="扫码成功" />}
        {view === 'expired' && (
          <Overlay icon={<ExclamationCircleFilled className="wx-qr-warn" />} title="二维码已过期">
            {refresh('刷新')}
          </Overlay>
        )}
        {view === 'cancelled' && (
          <Overlay icon={<CloseCircleFilled className="wx-qr-muted" />} title="已取消">
            {refresh('重新获取')}
          </Overlay>
        )}
        {view === 'failed' && (
          <Overlay icon={<ExclamationCircleFilled className="wx-qr-error" />} title="二维码获取失败">
            {refresh('重新获取')}
          </Overlay>
        )}
        {view === 'done' && <Overlay icon={<CheckCircleFilled className="wx-qr-ok" />} title="登录成功" />}
      </div>

      <div className="wx-qr-status" role="status" aria-live="polite">
        {view === 'pending' && (
          <>
            <p className="wx-qr-headline">等待扫码</p>
            <p className="wx-qr-hint">请用已登录的手机浏览器扫描二维码</p>
            <p className="wx-qr-hint">
              二维码将在 <span className="wx-qr-countdown">{countdown(remainingMs)}</span> 后过期
            </p>
          </>
        )}
        {view === 'scanned' && (
          <>
            <p className="wx-qr-headline">已扫码，请在手机上确认</p>
            <p className="wx-qr-hint">在手机上点击「确认登录」即可完成登录</p>
          </>
        )}
        {view === 'expired' && <p className="wx-qr-hint">点击「刷新」获取新的二维码</p>}
        {view === 'cancelled' && <p className="wx-qr-hint">本次登录已在手机上取消</p>}
        {view === 'failed' && <p className="wx-qr-hint">{failure?.message ?? '请稍后重试'}</p>}
        {view === 'loading' && <p className="wx-qr-hint">请稍候</p>}
        {view === 'done' && <p className="wx-qr-hint">正在跳转…</p>}
      </div>

      {confirmUrl && live && (
        <p className="wx-qr-link">
          无法扫码？
          <button type="button" className="wx-link-button" onClick={copy}>
            复制确认链接
          </button>
          到已登录的浏览器中打开
        </p>
      )}
    </div>
  );
}
