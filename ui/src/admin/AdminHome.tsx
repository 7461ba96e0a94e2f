/**
 * The admin index: the spec's plain 'admin' heading, and under it the figures of the user's areas
 * (GET /api/admin/dashboard answers only those the user may read), each a link to the screen that
 * lists them.
 */
import { type Dashboard, fetchDashboard, formatMoney } from '@wanxiang/core';
import { Alert, Button, Card, Col, Row, Skeleton, Statistic } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { failureText, useRemote } from '../public/use-remote';
import { useServices } from '../session/services-context';
import { useScreenActive } from './tabs/screen-location';
import './dashboard.css';

/** The figures are read again while the home screen is shown. */
export const DASHBOARD_REFRESH_MS = 60_000;

interface CardSpec {
  title: string;
  href: string;
  value: (d: Dashboard) => number | undefined;
  money?: boolean;
  /** Yesterday up to the same time of day, for the figures that compare. */
  yesterday?: (d: Dashboard) => number | undefined;
  /** A count that wants attention when it is not zero; `hint` says where the card leads. */
  pending?: boolean;
  hint?: string;
}

// In card order; a card whose figure the answer leaves out (no permission) is not shown.
// Monitoring's cards (jobs down, certificates expiring) join here when their figures exist.
const CARDS: CardSpec[] = [
  {
    title: '今日订单',
    href: '/admin/OMS/order',
    value: (d) => d.ordersToday?.today,
    yesterday: (d) => d.ordersToday?.yesterday,
  },
  {
    title: '今日营业额',
    href: '/admin/OMS/income',
    value: (d) => d.revenueTodayFen?.today,
    yesterday: (d) => d.revenueTodayFen?.yesterday,
    money: true,
  },
  {
    title: '待接单',
    href: '/admin/OMS/order?tab=new',
    value: (d) => d.awaitingAcceptance,
    pending: true,
  },
  {
    title: '待派单',
    href: '/admin/runner/order?status=waiting',
    value: (d) => d.awaitingRunner,
    pending: true,
  },
  {
    title: '待处理退款',
    href: '/admin/OMS/order?tab=refunds',
    value: (d) => d.pendingRefunds,
    pending: true,
  },
  {
    title: '故障监控',
    href: '/admin/monitor/job?status=down',
    value: (d) => d.jobsDown,
    pending: true,
  },
  {
    title: '证书即将到期',
    href: '/admin/monitor/ssl?status=expiring',
    value: (d) => d.certificatesExpiring,
    pending: true,
  },
];

const show = (value: number, money: boolean | undefined) =>
  money ? formatMoney(value) : value.toLocaleString('zh-CN');

function Change({ today, yesterday, money }: { today: number; yesterday: number; money?: boolean }) {
  let change: ReactNode = null;
  if (yesterday > 0) {
    const percent = ((today - yesterday) / yesterday) * 100;
    const up = percent >= 0;
    change = (
      <span className={up ? 'wx-dashboard-up' : 'wx-dashboard-down'}>
        {up ? '↑' : '↓'} {Math.abs(percent).toFixed(1)}%
      </span>
    );
  }
  return (
    <div className="wx-dashboard-compare">
      昨日同时段 {show(yesterday, money)} {change}
    </div>
  );
}

export default function AdminHome() {
  const { http } = useServices();
  const active = useScreenActive();
  const [remote, retry] = useRemote(() => fetchDashboard(http), [http], { keepData: true });
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') retry();
    }, DASHBOARD_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [active, retry]);

  const data = remote.data;
  const cards = data ? CARDS.filter((c) => c.value(data) !== undefined) : [];
  return (
    <>
      <h1 className="wx-admin-home">admin</h1>
      {remote.state === 'failed' && (
        <Alert
          type="error"
          showIcon
          className="wx-dashboard-error"
          title={`首页数据加载失败：${failureText(remote.error)}`}
          action={
            <Button size="small" onClick={retry}>
              重试
            </Button>
          }
        />
      )}
      {!data && remote.state === 'loading' && (
        <Row gutter={[16, 16]}>
          {[0, 1, 2].map((i) => (
            <Col key={i} xs={24} sm={12} xl={6}>
              <Card size="small">
                <Skeleton active paragraph={{ rows: 1 }} />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      {data && cards.length === 0 && <p className="wx-dashboard-none">从左侧菜单选择要打开的页面。</p>}
      {data && cards.length > 0 && (
        <Row gutter={[16, 16]} className="wx-dashboard">
          {cards.map((card) => {
            const value = card.value(data) as number;
            const yesterday = card.yesterday?.(data);
            return (
              <Col key={card.title} xs={24} sm={12} xl={{ flex: `${100 / Math.min(cards.length, 5)}%` }}>
                <Link
                  to={card.href}
                  className="wx-dashboard-link"
                  aria-label={`${card.title}：${show(value, card.money)}`}
                >
                  <Card size="small" hoverable className="wx-dashboard-card">
                    <Statistic
                      title={card.title}
                      value={show(value, card.money)}
                      styles={card.pending && value > 0 ? { content: { color: '#fa541c' } } : undefined}
                    />
                    {yesterday !== undefined ? (
                      <Change today={value} yesterday={yesterday} money={card.money} />
                    ) : (
                      <div className="wx-dashboard-compare">{card.hint}</div>
                    )}
                  </Card>
                </Link>
              </Col>
            );
          })}
        </Row>
      )}
    </>
  );
}
