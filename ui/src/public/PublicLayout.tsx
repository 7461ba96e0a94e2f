/**
 * The shared layout of the public site: the product name, the nav (a fold-out menu below 768 px),
 * the signed-in name or a 登录 link, and the copyright footer. It remembers the current path and
 * query on every navigation, for /scan_login to come back to. Plain markup rather than antd's
 * Menu/Drawer keeps the public home light (QUALITY.md: ≤ 200 KB before first paint).
 */
import { CloseOutlined, MenuOutlined } from '@ant-design/icons';
import { COPYRIGHT_YEAR } from '@wanxiang/core';
import { ConfigProvider, type ThemeConfig } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { rememberPublicPath } from '../platform/public-path';
import { Logo } from '../screens/Logo';
import { ScreenOutlet } from '../screens/ScreenOutlet';
import { useServices, useSiteConfig } from '../session/services-context';
import { AccountMenu } from './AccountMenu';
import { navEntryOf, PUBLIC_NAV } from './public-nav';
import './public.css';

const PUBLIC_THEME: ThemeConfig = { token: { colorPrimary: '#0958d9' } };

function NavLinks({ current }: { current: string | undefined }) {
  return (
    <ul className="wx-public-links">
      {PUBLIC_NAV.map((entry) => (
        <li key={entry.path}>
          <Link
            to={entry.path}
            className={entry.path === current ? 'wx-public-link wx-public-link-active' : 'wx-public-link'}
            aria-current={entry.path === current ? 'page' : undefined}
          >
            {entry.title}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function PublicLayout() {
  const { storage } = useServices();
  const { productName, copyright } = useSiteConfig();
  const { pathname, search } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const current = navEntryOf(pathname)?.path;

  useEffect(() => {
    rememberPublicPath(storage, pathname + search);
    setMenuOpen(false);
  }, [storage, pathname, search]);

  return (
    <div className="wx-public">
      <header className="wx-public-header">
        <div className="wx-public-bar">
          <Link to="/" className="wx-public-brand">
            <Logo size={28} />
            <span>{productName}</span>
          </Link>
          <nav className="wx-public-nav" aria-label="主导航">
            <NavLinks current={current} />
          </nav>
          <div className="wx-public-account-slot">
            <AccountMenu />
          </div>
          <button
            type="button"
            className="wx-public-menu-button"
            aria-label={menuOpen ? '收起导航菜单' : '打开导航菜单'}
            aria-expanded={menuOpen}
            aria-controls="wx-public-fold"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <CloseOutlined /> : <MenuOutlined />}
          </button>
        </div>
        {menuOpen && (
          <div className="wx-public-fold" id="wx-public-fold">
            <nav aria-label="主导航">
              <NavLinks current={current} />
            </nav>
            <AccountMenu inline />
          </div>
        )}
      </header>
      <main className="wx-public-main">
        {/* antd's filled buttons and links on the public screens in blue-7: white on it is 6:1,
            on the primary #1677ff only 4.1:1 (WCAG AA asks 4.5; see public.css). */}
        <ConfigProvider theme={PUBLIC_THEME}>
          <ScreenOutlet level={2} />
        </ConfigProvider>
      </main>
      <footer className="wx-public-footer">{copyright || `© ${COPYRIGHT_YEAR} ${productName}`}</footer>
    </div>
  );
}
