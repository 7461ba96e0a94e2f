import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { NoticeBridge } from '../platform/NoticeBridge';
import { ServicesProvider } from '../session/services-context';
import { useReducedMotion } from './reduced-motion';
import type { Services } from './services';
import { validateMessages } from './validate-messages';

/**
 * The providers every screen sits in: antd in Chinese (ConfigProvider zh_CN, core's form
 * messages), the notification bridge and the shared services. A system set to reduce motion gets
 * antd without its motion (drawers, modals, menus and notices appear and go at once), as the
 * site's own animations already stop for it (blog skeletons, the player's bars).
 */
export function Root({ services, children }: { services: Services; children: ReactNode }) {
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider
      locale={zhCN}
      form={{ validateMessages }}
      theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6, motion: !reducedMotion } }}
    >
      <ServicesProvider services={services}>
        <NoticeBridge />
        {children}
      </ServicesProvider>
    </ConfigProvider>
  );
}
