/**
 * The back office frame: a collapsible Sider with the menu core computes for the user's
 * permissions, a header with the screen's title, the display name and 退出登录.
 */
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { ADMIN_HOME_PATH, COPYRIGHT_YEAR, findAdminRoute, messages, visibleMenu } from '@wanxiang/core';
import { App, Avatar, Breadcrumb, Button, Layout, Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigation } from 'react-router-dom';
import { Logo } from '../screens/Logo';
import { ScreenOutlet } from '../screens/ScreenOutlet';
import { useServices, useSession, useSiteConfig } from '../session/services-context';
import { menuTrail, toMenuItems } from './admin-menu';
import './admin.css';

const HOME_TITLE = '首页';
const NO_PERMISSIONS: readonly string[] = [];

export default function AdminLayout() {
  const { session } = useServices();
  const { productName } = useSiteConfig();
  // The Guard renders this layout only once the user is loaded and may enter.
  const permissions = useSession((s) => s.context.user?.permissions ?? NO_PERMISSIONS);
  const displayName = useSession((s) => s.context.displayName);
  const signingOut = useSession((s) => s.matches({ signedIn: 'signingOut' }));
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '') || '/';

  const menu = useMemo(() => visibleMenu(permissions), [permissions]);
  const items = useMemo(() => toMenuItems(menu), [menu]);
  const trail = useMemo(() => menuTrail(menu, path), [menu, path]);
  const title = path === ADMIN_HOME_PATH ? HOME_TITLE : (findAdminRoute(path)?.title ?? '');

  const [collapsed, setCollapsed] = useState(false);
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

  // antd's App here, not at the root: admin screens get message/modal from App.useApp() while the
  // public site and the login screens stay without Modal and the form engine.
  return (
    <App component={false}>
      <Layout className="wx-admin" hasSider>
        {/* The column keeps the dark background down a long page; the Sider inside stays in view. */}
        <div className="wx-admin-sider-column">
          <Layout.Sider
            className="wx-admin-sider"
            width={224}
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
          <Layout.Content className="wx-admin-content">
            <ScreenOutlet level={2} />
          </Layout.Content>
          <Layout.Footer className="wx-admin-footer">
            © {COPYRIGHT_YEAR} {productName}
          </Layout.Footer>
        </Layout>
      </Layout>
    </App>
  );
}
