import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { NoticeBridge } from '../platform/NoticeBridge';
import { ServicesProvider } from '../session/services-context';
import type { Services } from './services';
import { validateMessages } from './validate-messages';

/**
 * The providers every screen sits in: antd in Chinese (ConfigProvider zh_CN, core's form
 * messages), the notification bridge and the shared services.
 */
export function Root({ services, children }: { services: Services; children: ReactNode }) {
  return (
    <ConfigProvider
      locale={zhCN}
      form={{ validateMessages }}
      theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6 } }}
    >
      <ServicesProvider services={services}>
        <NoticeBridge />
        {children}
      </ServicesProvider>
    </ConfigProvider>
  );
}
