import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useSyncExternalStore } from 'react';
import { NoticeBridge } from '../platform/NoticeBridge';
import { ServicesProvider } from '../session/services-context';
import type { Services } from './services';
import { validateMessages } from './validate-messages';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** Whether the system asks for less motion (followed live, as the setting can change). */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia?.(REDUCED_MOTION).matches ?? false,
    () => false,
  );
}

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
