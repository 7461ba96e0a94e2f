import { NOTIFICATION_DURATION_S } from '@wanxiang/core';
import { notification } from 'antd';
import { useEffect } from 'react';
import { useServices } from '../session/services-context';

/**
 * Hands the hub's notices to antd notifications from the hook API, rendered inside ConfigProvider
 * so they get zh_CN and the theme (never the static functions). The hook rather than antd's App
 * at the root: App also brings Modal, Button and the form engine, 25 KB gzip the public home and
 * the login screen do not need (QUALITY.md bars); the admin layout wraps its screens in App.
 */
export function NoticeBridge() {
  const [api, holder] = notification.useNotification({
    duration: NOTIFICATION_DURATION_S,
    placement: 'topRight',
  });
  const { notices } = useServices();
  useEffect(() => notices.attach(({ level, message }) => api[level]({ title: message })), [notices, api]);
  return holder;
}
