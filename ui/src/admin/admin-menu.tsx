/**
 * Core's menu (visibleMenu) as antd Menu items. Only presentation is added here: an icon per
 * top-level entry and links for the leaves.
 */
import {
  AccountBookOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  CarOutlined,
  CloudOutlined,
  CommentOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  DeploymentUnitOutlined,
  DesktopOutlined,
  FileTextOutlined,
  GiftOutlined,
  MonitorOutlined,
  PictureOutlined,
  ProfileOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import type { MenuItem } from '@wanxiang/core';
import type { MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

const ICONS: Record<string, ReactNode> = {
  user: <UserOutlined />,
  store: <ShopOutlined />,
  'goods-category': <AppstoreOutlined />,
  goods: <ShoppingOutlined />,
  order: <ProfileOutlined />,
  delivery: <CarOutlined />,
  supply: <DeploymentUnitOutlined />,
  device: <DesktopOutlined />,
  finance: <AccountBookOutlined />,
  marketing: <GiftOutlined />,
  community: <CommentOutlined />,
  platform: <SettingOutlined />,
  doc: <FileTextOutlined />,
  blog: <BookOutlined />,
  member: <CrownOutlined />,
  staff: <TeamOutlined />,
  'third-service': <ApiOutlined />,
  poster: <PictureOutlined />,
  monitor: <MonitorOutlined />,
  music: <CustomerServiceOutlined />,
  movie: <VideoCameraOutlined />,
  'api-market': <ApiOutlined />,
  cdn: <CloudOutlined />,
  merchant: <WechatOutlined />,
};

type AntdItems = NonNullable<MenuProps['items']>;

/**
 * Leaves are keyed by their path (what the router selects), groups and disabled items by menuId.
 * `hrefOf` says where a leaf leads (an open tab's screen with the query it was left at).
 */
export function toMenuItems(
  menu: readonly MenuItem[],
  hrefOf: (path: string) => string = (path) => path,
  topLevel = true,
): AntdItems {
  return menu.map((item) => {
    const icon = topLevel ? (ICONS[item.menuId] ?? <AppstoreOutlined />) : undefined;
    if (item.children) {
      return {
        key: item.menuId,
        icon,
        label: item.title,
        children: toMenuItems(item.children, hrefOf, false),
      };
    }
    if (item.disabled || !item.path) {
      return { key: item.menuId, icon, label: item.title, disabled: true };
    }
    return { key: item.path, icon, label: <Link to={hrefOf(item.path)}>{item.title}</Link> };
  });
}

/** The chain of menu entries down to the leaf with this path: groups to open, titles for the breadcrumb. */
export function menuTrail(menu: readonly MenuItem[], path: string): MenuItem[] {
  for (const item of menu) {
    if (item.path === path) return [item];
    if (item.children) {
      const below = menuTrail(item.children, path);
      if (below.length > 0) return [item, ...below];
    }
  }
  return [];
}
