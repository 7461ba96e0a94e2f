/**
 * The back office frame: a collapsible Sider with the menu core computes for the user's
 * permissions, a header with the screen's title, the display name and 退出登录, the tab bar of open
 * screens (多标签页) and the screens themselves, kept alive while their tabs are open. The user's
 * preferences (tabs, columns, page sizes, saved filters) are loaded here for every screen.
 */
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { ADMIN_HOME_PATH, COPYRIGHT_YEAR, findAdminRoute, messages, visibleMenu } from '@wanxiang/core';
import { App, Avatar, Breadcrumb, Button, Layout, Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigation } from 'react-router-dom';
import { PreferencesProvider } from '../preferences/PreferencesContext';
import { createPreferencesStore } from '../preferences/preferences-store';
import { Logo } from '../screens/Logo';
import { useServices, useSession, useSiteConfig } from '../session/services-context';
import { menuTrail, toMenuItems } from './admin-menu';
import { AdminTabs } from './tabs/AdminTabs';
import { KeepAliveOutlet } from './tabs/KeepAliveOutlet';
import { useOpenTabs } from './tabs/useOpenTabs';
import './admin.css';

const HOME_TITLE = '首页';
const SIDER_WIDTH = 224;
const SIDER_COLLAPSED_WIDTH = 80;
const SIDER_WIDTH_VARIABLE = '--wx-admin-sider-width';
const NO_PERMISSIONS: readonly string[] = [];

export default function AdminLayout() {
  const { http } = useServices();
  // One store per visit of the back office: a sign-out leaves the layout and drops it.
  const [preferences] = useState(() => createPreferencesStore(http));
  useEffect(() => {
    void preferences.load();
    const flush = () => void preferences.flush();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      // Leaving the back office is signing out: the token may be revoked already, so a late write
      // would answer 401 (登录超时) after a deliberate sign-out.
      preferences.dispose();
    };
  }, [preferences]);
  // antd's App here, not at the root: admin screens get message/modal from App.useApp() while the
  // public site and the login screens stay without Modal and the form engine.
  return (
    <App component={false}>
      <PreferencesProvider store={preferences}>
        <AdminFrame />
      </PreferencesProvider>
    </App>
  );
}

function AdminFrame() {
  const { session } = useServices();
  const { productName } = useSiteConfig();
  // The Guard renders this layout only once the user is loaded and may enter.
  const permissions = useSession((s) => s.context.user?.permissions ?? NO_PERMISSIONS);
  const displayName = useSession((s) => s.context.displayName);
  const signingOut = useSession((s) => s.matches({ signedIn: 'signingOut' }));
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '') || '/';

  const openTabs = useOpenTabs(permissions);
  const menu = useMemo(() => visibleMenu(permissions), [permissions]);
  // A menu entry of an open tab leads back to it as it was left (its filters, its page).
  const items = useMemo(() => toMenuItems(menu, openTabs.hrefOf), [menu, openTabs.hrefOf]);
  const trail = useMemo(() => menuTrail(menu, path), [menu, path]);
  const title = path === ADMIN_HOME_PATH ? HOME_TITLE : (findAdminRoute(path)?.title ?? '');

  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    // Drawers open beside the menu and below the header and tabs, which stay usable (see
    // resources/ResourceForm.tsx); they are portals in <body>, so the width is a root variable.
    const root = document.documentElement;
    root.style.setProperty(SIDER_WIDTH_VARIABLE, `${collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH}px`);
    return () => {
      root.style.removeProperty(SIDER_WIDTH_VARIABLE);
    };
  }, [collapsed]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => trail.slice(0, -1).map((i) => i.menuId));
  useEffect(() => {
    // Navigating to a screen opens its groups; groups the user opened stay open.
    const groups = trail.slice(0, -1).map((i) => i.menuId);
    setOpenKeys((open) => [...new Set([...open, ...groups])]);
  }, [trail]);

  const crumbs = [
    { key: 'home', title: <Link to={ADMIN_HOME_PATH}>{HOME_TITLE}</Link> },
    ...trail.slice(0, -1).map((i) => ({ key: i.menuId, title: i.title })),
    { key: 'current', title },
  ];

  return (
    <Layout className="wx-admin" hasSider>
      {/* The column keeps the dark background down a long page; the Sider inside stays in view. */}
      <div className="wx-admin-sider-column">
        <Layout.Sider
          className="wx-admin-sider"
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
        >
          <Link to={ADMIN_HOME_PATH} className="wx-admin-brand">
            <Logo size={28} />
            {!collapsed && <span>{productName}</span>}
          </Link>
          <Menu
            theme="dark"
            mode="inline"
            items={items}
            selectedKeys={[path]}
            // Collapsed, the groups open as pop-ups the Menu manages; the inline groups are kept for later.
            openKeys={collapsed ? undefined : openKeys}
            onOpenChange={(keys) => {
              if (!collapsed) setOpenKeys(keys);
            }}
            className="wx-admin-menu"
          />
        </Layout.Sider>
      </div>
      <Layout className="wx-admin-body">
        <Layout.Header className="wx-admin-header">
          <div className="wx-admin-heading">
            <div className="wx-admin-title">{title}</div>
            {path !== ADMIN_HOME_PATH && <Breadcrumb items={crumbs} className="wx-admin-breadcrumb" />}
          </div>
          <div className="wx-admin-user">
            <Avatar size="small" icon={<UserOutlined />} className="wx-admin-avatar" />
            <span className="wx-admin-name">{displayName || messages.anonymous}</span>
            <Button
              type="text"
              icon={<LogoutOutlined />}
              loading={signingOut}
              onClick={() => session.send({ type: 'SIGN_OUT' })}
            >
              {messages.signOut}
            </Button>
          </div>
        </Layout.Header>
        {navigation.state === 'loading' && (
          <div className="wx-admin-progress" role="progressbar" aria-label="加载中" />
        )}
        <AdminTabs openTabs={openTabs} />
        <Layout.Content className="wx-admin-content">
          <KeepAliveOutlet tabs={openTabs.tabs} />
        </Layout.Content>
        <Layout.Footer className="wx-admin-footer">
          © {COPYRIGHT_YEAR} {productName}
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}
