/**
 * 多标签页: the open admin screens above the content. Click to switch (the screen comes back as it
 * was left), × to close (not 首页), right-click or the ⋯ button for 关闭其他 / 关闭全部. A light
 * strip of our own rather than antd's Tabs, which would add its tab engine to every admin screen.
 */
import { CloseOutlined, EllipsisOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useEffect, useRef } from 'react';
import { HOME_TAB, tabTitle } from './open-tabs';
import type { OpenTabs } from './useOpenTabs';

function menuFor(openTabs: OpenTabs, path: string): MenuProps {
  return {
    items: [
      { key: 'close', label: '关闭', icon: <CloseOutlined />, disabled: path === HOME_TAB.path },
      {
        key: 'others',
        label: '关闭其他',
        disabled: openTabs.tabs.every((t) => t.path === path || t.path === HOME_TAB.path),
      },
      { key: 'all', label: '关闭全部', disabled: openTabs.tabs.length <= 1 },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'close') openTabs.close(path);
      else if (key === 'others') openTabs.closeOthers(path);
      else openTabs.closeAll();
    },
  };
}

export function AdminTabs({ openTabs }: { openTabs: OpenTabs }) {
  const { tabs, current } = openTabs;
  const activeKey = tabs.some((t) => t.path === current) ? current : HOME_TAB.path;
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The shown tab stays in view when many are open.
    const tab = [...(list.current?.children ?? [])].find(
      (el) => el instanceof HTMLElement && el.dataset.path === activeKey,
    );
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeKey]);

  return (
    <nav className="wx-admin-tabs" aria-label="已打开的页面">
      <div className="wx-admin-tabs-list" role="tablist" ref={list}>
        {tabs.map((tab) => {
          const title = tabTitle(tab.path);
          const active = tab.path === activeKey;
          return (
            <Dropdown key={tab.path} menu={menuFor(openTabs, tab.path)} trigger={['contextMenu']}>
              <div
                className={active ? 'wx-admin-tab wx-admin-tab-active' : 'wx-admin-tab'}
                data-path={tab.path}
              >
                <button
                  type="button"
                  role="tab"
                  aria-selected={active}
                  className="wx-admin-tab-title"
                  onClick={() => openTabs.select(tab.path)}
                >
                  {title}
                </button>
                {tab.path !== HOME_TAB.path && (
                  <button
                    type="button"
                    className="wx-admin-tab-close"
                    aria-label={`关闭 ${title}`}
                    onClick={() => openTabs.close(tab.path)}
                  >
                    <CloseOutlined />
                  </button>
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      <Dropdown menu={menuFor(openTabs, activeKey)} trigger={['click']} placement="bottomRight">
        <Button type="text" size="small" icon={<EllipsisOutlined />} aria-label="标签页操作" />
      </Dropdown>
    </nav>
  );
}
