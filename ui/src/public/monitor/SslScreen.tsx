/**
 * /ssl (证书工具, login): 检测证书 (the server's handshake), 解析证书 and 生成 CSR (in this page, with
 * @peculiar/x509 loaded only when one of those tabs opens), 证书监控 (own watches). The active tab
 * is in the URL (?tab=) so a tab can be linked.
 */
import { Card, Skeleton, Tabs } from 'antd';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SslCheckTab } from './SslCheckTab';
import { SslWatchTab } from './SslWatchTab';
import './ssl.css';

const PemTab = lazy(() => import('./PemTab'));
const CsrTab = lazy(() => import('./CsrTab'));

const TABS = ['check', 'decode', 'csr', 'watch'] as const;
type Tab = (typeof TABS)[number];

export default function SslScreen() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'check';
  const lazyTab = (node: React.ReactNode) => <Suspense fallback={<Skeleton active />}>{node}</Suspense>;

  return (
    <section className="wx-public-screen wx-ssl-screen">
      <h1 className="wx-public-screen-title">证书工具</h1>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            const next = new URLSearchParams(params);
            if (key === 'check') next.delete('tab');
            else next.set('tab', key);
            setParams(next, { replace: true });
          }}
          destroyOnHidden={false}
          items={[
            { key: 'check', label: '检测证书', children: <SslCheckTab /> },
            { key: 'decode', label: '解析证书', children: lazyTab(<PemTab />) },
            { key: 'csr', label: '生成 CSR', children: lazyTab(<CsrTab />) },
            { key: 'watch', label: '证书监控', children: <SslWatchTab /> },
          ]}
        />
      </Card>
    </section>
  );
}
