import {
  DownOutlined,
  LoginOutlined,
  LogoutOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { ADMIN_HOME_PATH, messages, SCAN_LOGIN_PATH, sessionView } from '@wanxiang/core';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useServices, useSession } from '../session/services-context';

/**
 * The signed-in name with a small menu (管理后台, 退出登录), or the 登录 link. Hand-made rather than
 * antd's Dropdown: the public site stays light.
 */
export function AccountMenu({ inline = false }: { inline?: boolean }) {
  const { session } = useServices();
  const signedIn = useSession((s) => sessionView(s).signedIn);
  const displayName = useSession((s) => s.context.displayName);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!signedIn) {
    return (
      <Link to={SCAN_LOGIN_PATH} className="wx-public-login">
        <LoginOutlined />
        <span>{messages.signIn}</span>
      </Link>
    );
  }

  const name = (
    <>
      <span className="wx-public-avatar" aria-hidden="true">
        <UserOutlined />
      </span>
      <span className="wx-public-account-name">{displayName || messages.anonymous}</span>
    </>
  );
  const items = (
    <>
      <Link to={ADMIN_HOME_PATH} className="wx-public-account-item" role={inline ? undefined : 'menuitem'}>
        <SettingOutlined /> 管理后台
      </Link>
      <button
        type="button"
        className="wx-public-account-item"
        role={inline ? undefined : 'menuitem'}
        onClick={() => {
          setOpen(false);
          session.send({ type: 'SIGN_OUT' });
        }}
      >
        <LogoutOutlined /> {messages.signOut}
      </button>
    </>
  );

  if (inline) {
    return (
      <div className="wx-public-account-inline">
        <div className="wx-public-account-head">{name}</div>
        {items}
      </div>
    );
  }
  return (
    <div className="wx-public-account" ref={root}>
      <button
        type="button"
        className="wx-public-account-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        {name}
        <DownOutlined className="wx-public-account-caret" />
      </button>
      {open && (
        <div className="wx-public-account-menu" role="menu" id={menuId}>
          {items}
        </div>
      )}
    </div>
  );
}
